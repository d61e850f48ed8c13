"""Entity numbers: every mention of one entity in a scope shares a number, 1, 2, 3 ... by first appearance.

Person name variants (``PÉREZ RODRÍGUEZ, Pedro``, ``Pedro Pérez``, ``Sr. Pérez``) are
grouped by agglomerative clustering over the Overlap distance with average linkage
and threshold 0.45, after lowercasing, accent stripping, dropping particles and
reordering inverted names: the best setting in Garat & Wonsever (2022, ARI 0.96).
Two guards keep different people apart: clusters holding two full names farther
apart than the threshold never merge, and a bare given name that fits two
different people stays an entity of its own.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable

import regex

from ..corpora.model import Mention
from ..text import fold, phrase_key

ALIAS_WORD = regex.compile(r"[\w&]+")  # the words of an organisation's name, punctuation left out


def name_tokens(text: str, particles: frozenset[str]) -> frozenset[str]:
    """``PÉREZ RODRÍGUEZ, Pedro`` -> {pedro, perez, rodriguez}; ``particles`` (folded: the language's
    ``person.particles``, ``ChainRules.particles``) are left out."""
    if "," in text:
        head, _, given = text.partition(",")
        text = f"{given} {head}"
    words = [w.strip(".'’-") for w in fold(text).replace("-", " ").split()]
    return frozenset(w for w in words if w and w not in particles)


def overlap_distance(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 1.0
    return 1.0 - len(a & b) / min(len(a), len(b))


def cluster_names(variants: list[str], particles: frozenset[str], threshold: float) -> list[int]:
    """Cluster label per variant (labels are indices of the variant that opened the cluster).

    Average-linkage agglomerative clustering: the closest two clusters merge while their average distance
    is at most ``threshold``. Two names with no word in common are at distance 1, so only clusters that share
    a word are ever compared (a document's names are mostly strangers to each other), each pair's average is
    kept in a heap and recomputed only when one of its clusters grows. Ties go to the pair opened first, as
    in the plain algorithm, and the averages are summed in the same order, so the labels are the same.
    """
    return _NameClusters([name_tokens(v, particles) for v in variants], threshold).labels()


class _NameClusters:
    """The state of one :func:`cluster_names`: the variants' words, the clusters so far, the heap of pairs."""

    def __init__(self, toks: list[frozenset[str]], threshold: float) -> None:
        self.toks, self.threshold, self.n = toks, threshold, len(toks)
        self.by_word: dict[str, list[int]] = {}
        for i, t in enumerate(toks):
            for w in t:
                self.by_word.setdefault(w, []).append(i)
        # a bare single-token name that fits two full names which are not one person is kept apart
        self.ambiguous = set()
        for i in range(self.n):
            if len(toks[i]) == 1:
                fits = sorted(j for j in self.sharing(i) if len(toks[j]) > 1 and self.dist(i, j) == 0)
                if any(self.dist(a, b) > threshold for a in fits for b in fits):
                    self.ambiguous.add(i)
        self.members: dict[int, list[int]] = {i: [i] for i in range(self.n)}  # cluster id (first variant) -> all
        self.cluster_of = list(range(self.n))
        self.version = [0] * self.n
        self.heap: list[tuple[float, int, int, int, int]] = []

    def dist(self, i: int, j: int) -> float:
        return overlap_distance(self.toks[i], self.toks[j])

    def sharing(self, i: int) -> set[int]:
        if self.threshold >= 1.0:  # strangers too may merge
            return set(range(self.n)) - {i}
        return {j for w in self.toks[i] for j in self.by_word[w] if j != i}

    def average(self, x: int, y: int) -> float | None:
        """The two clusters' average distance when they may merge (x opened before y), else None."""
        a, b, toks, threshold = self.members[x], self.members[y], self.toks, self.threshold
        if any(i in self.ambiguous for i in a + b) and not all(toks[i] == toks[j] for i in a for j in b):
            return None
        pairs = [self.dist(i, j) for i in a for j in b]
        avg = sum(pairs) / len(pairs)
        if avg > threshold:
            return None
        if any(self.dist(i, j) > threshold and len(toks[i]) > 1 and len(toks[j]) > 1 for i in a for j in b):
            return None
        return avg

    def push(self, x: int, y: int) -> None:
        if x > y:
            x, y = y, x
        avg = self.average(x, y)
        if avg is not None:
            heapq.heappush(self.heap, (avg, x, y, self.version[x], self.version[y]))

    def labels(self) -> list[int]:
        for i in range(self.n):
            for j in self.sharing(i):
                if i < j:
                    self.push(i, j)
        members, version, cluster_of = self.members, self.version, self.cluster_of
        while self.heap:
            _, x, y, vx, vy = heapq.heappop(self.heap)
            if x not in members or y not in members or version[x] != vx or version[y] != vy:
                continue  # a cluster merged or grew since this pair was weighed
            members[x] = members[x] + members.pop(y)
            version[x] += 1
            for i in members[x]:
                cluster_of[i] = x
            for z in sorted({cluster_of[j] for i in members[x] for j in self.sharing(i)} - {x}):
                self.push(x, z)
        return [cluster_of[i] for i in range(self.n)]


def entity_key(m: Mention) -> str:
    if m.category in ("NAMEID", "DATE"):
        return m.category + ":" + "".join(ch for ch in fold(m.text) if ch.isalnum())
    return m.category + ":" + phrase_key(m.text)


def organization_aliases(mentions: Iterable[Mention]) -> dict[str, str]:
    """A short form of an organisation (``Grupo RX``, ``Tintas Belmiro``) names the organisation it begins
    (``Grupo RX Engenharia e Obras Ltda.``): the short form's key -> the first longer name it is a prefix of
    (two words at least, whole words). Companies only: public bodies share long prefixes (``Tribunal
    Regional Federal``, ``Tribunal Regional do Trabalho``)."""
    keys: list[str] = []
    companies: set[str] = set()
    for m in mentions:
        if m.category == "ORGANIZATION":
            k = entity_key(m)
            if k not in keys:
                keys.append(k)
            if m.subtype == "COMPANY":
                companies.add(k)
    out: dict[str, str] = {}
    for k in keys:
        words = ALIAS_WORD.findall(k.split(":", 1)[1])
        if len(words) < 2:
            continue
        for long in keys:
            if long not in companies:
                continue
            lw = ALIAS_WORD.findall(long.split(":", 1)[1])
            if len(lw) > len(words) and lw[:len(words)] == words:
                out[k] = long
                break
    return out


class EntityNumbers:
    """The numbers of one scope (a segment, a document or the corpus, by the run's scope kind): the one place an
    entity number is given. ``known`` maps a key (an entity key, a form key) to its number and may be shared with
    the caller; ``next`` is the first free number. Every step asks here: the source numbering (:class:`Numberer`),
    corpus consistency (``CorpusForms.mentions``), transfer (target-only entities) and the target side's
    consistency (``align.finish``)."""

    def __init__(self, next: int = 1, known: dict[str, int] | None = None) -> None:  # noqa: A002
        self.next = next
        self.known = {} if known is None else known

    @classmethod
    def above(cls, used: Iterable[int], floor: int, known: dict[str, int] | None = None) -> EntityNumbers:
        """The numbers of a scope whose mentions use ``used``: the first free one is past them all, ``floor``
        at least."""
        numbers = cls(floor, known)
        numbers.past(used, floor)
        return numbers

    def past(self, used: Iterable[int], floor: int) -> int:
        """Count again from the mentions: the first free number is past those ``used`` (``floor`` at least); a
        number given to a mention a later step dropped is free again. Returns it."""
        self.next = max([floor] + [u + 1 for u in used])
        return self.next

    def new(self) -> int:
        """A number for a new entity."""
        n = self.next
        self.next += 1
        return n

    def of(self, key: str) -> int:
        """The number of ``key``'s entity, a new one the first time."""
        if key not in self.known:
            self.known[key] = self.new()
        return self.known[key]


class Numberer:
    """Numbers the mentions of a scope by entity. ``start_scope`` starts a new scope (segment/document scopes).
    Person names are clustered without their ``particles``."""

    def __init__(self, particles: frozenset[str], threshold: float) -> None:
        self.particles, self.threshold = particles, threshold
        self.scope = EntityNumbers()

    @property
    def next(self) -> int:
        """The first number free in the current scope."""
        return self.scope.next

    def start_scope(self) -> None:
        self.scope = EntityNumbers()

    def assign(self, mentions: Iterable[Mention], aliases: dict[str, str] | None = None) -> None:
        """Set ``entity`` on mentions given in order of appearance. ``aliases`` maps acronym keys to long forms."""
        mentions = list(mentions)
        persons = [m for m in mentions if m.category == "PERSON"]
        variants = sorted({m.text for m in persons}, key=lambda v: next(i for i, m in enumerate(persons) if m.text == v))
        canon: dict[str, str] = {}
        if variants:
            labels = cluster_names(variants, self.particles, self.threshold)
            for v, lab in zip(variants, labels, strict=True):
                canon["PERSON:" + phrase_key(v)] = "PERSON:" + phrase_key(variants[lab])
        aliases = aliases or {}
        for m in mentions:
            key = entity_key(m)
            key = canon.get(key, key)
            m.entity = self.scope.of(aliases.get(key, key))
