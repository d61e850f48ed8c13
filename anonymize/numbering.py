"""Entity numbers: every mention of one entity in a scope shares a number, 1, 2, 3 ... by first appearance.

Person name variants (``PÉREZ RODRÍGUEZ, Pedro``, ``Pedro Pérez``, ``Sr. Pérez``) are
grouped by agglomerative clustering over the Overlap distance with average linkage
and threshold 0.45, after lowercasing, accent stripping, dropping particles and
reordering inverted names: the best setting in Garat & Wonsever (2022, ARI 0.96).
Two guards keep different people apart: clusters holding two full names farther
apart than the threshold never merge, and a bare given name that fits two
different people stays an entity of its own.

A reviewer's say (``paranon review``, ``anonymize.same_entity`` and ``different_entities``, :class:`Constraints`)
comes first: the forms of a ``same_entity`` group are one entity in every scope (must-link: they start the
clustering as one cluster, and other categories' keys are redirected to the group's), and two forms listed as
``different_entities`` never share a number (cannot-link: two clusters holding such a pair never merge, an alias
between them is not followed).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from itertools import combinations

import regex

from ..corpora.model import Mention
from ..text import fold, phrase_key

ALIAS_WORD = regex.compile(r"[\w&]+")  # the words of an organisation's name, punctuation left out
DIGIT_RUN = regex.compile(r"\d+")
DASH = regex.compile(r"\s+[–—-]\s+")  # the dash between a company's name and what it does
LEGAL_FORM_MOST = 16  # characters of a legal form after a company's last comma ("unipessoal, lda" is two parts)


def name_tokens(text: str, particles: frozenset[str]) -> frozenset[str]:
    """``PÉREZ RODRÍGUEZ, Pedro`` -> {pedro, perez, rodriguez}; ``particles`` (folded: the language's
    ``person.particles``, ``ChainRules.particles``) are left out."""
    if "," in text:
        head, _, given = text.partition(",")
        text = f"{given} {head}"
    words = [w.strip(".'’-") for w in fold(text).replace("-", " ").split()]
    return frozenset(w for w in words if w and w not in particles)


def given_name(text: str, particles: frozenset[str]) -> str:
    """The first word of a name as said (``PÉREZ RODRÍGUEZ, Pedro`` -> pedro), folded, particles left out."""
    if "," in text:
        head, _, given = text.partition(",")
        text = f"{given} {head}"
    return next((w for w in (w.strip(".'’-") for w in fold(text).replace("-", " ").split()) if w and w not in particles), "")


def overlap_distance(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 1.0
    return 1.0 - len(a & b) / min(len(a), len(b))


class Constraints:
    """The reviewer's decisions on numbering, forms compared by :func:`phrase_key` (case, accents and spacing
    aside, like allow-list entries). ``same``: groups of forms of one entity (groups sharing a form are one);
    ``different``: lists of forms that are pairwise different entities. A pair both joined and kept apart is
    joined (must-link wins; ``conflict`` names the first such pair, and ``config_check`` rejects the file)."""

    def __init__(self, same: Iterable[Sequence[str]] = (), different: Iterable[Sequence[str]] = ()) -> None:
        parent: dict[str, str] = {}

        def find(k: str) -> str:
            while parent.setdefault(k, k) != k:
                k = parent[k]
            return k

        for forms in same:
            keys = [phrase_key(f) for f in forms]
            for k in keys[1:]:
                a, b = find(keys[0]), find(k)
                if a != b:
                    parent[b] = a
        self.group = {k: find(k) for k in parent}  # form key -> its group's first form key
        self.members: dict[str, list[str]] = {}  # group key -> the forms as written
        for forms in same:
            for f in forms:
                bucket = self.members.setdefault(self.group[phrase_key(f)], [])
                if f not in bucket:
                    bucket.append(f)
        self.apart: set[frozenset[str]] = set()
        self.conflict: tuple[str, str] | None = None  # the first two forms kept apart and also joined, as written
        for forms in different:
            for a, b in combinations(forms, 2):
                ka, kb = phrase_key(a), phrase_key(b)
                ga = self.group.get(ka)
                if ga is not None and ga == self.group.get(kb):
                    self.conflict = self.conflict or (a, b)
                elif ka != kb:
                    self.apart.add(frozenset((ka, kb)))

    def __bool__(self) -> bool:
        return bool(self.group or self.apart)

    def group_of(self, form: str) -> str | None:
        """The key of the ``same_entity`` group ``form`` is in, if any."""
        return self.group.get(phrase_key(form))

    def kept_apart(self, a: Iterable[str], b: Iterable[str]) -> bool:
        """Whether a form key of ``a`` and one of ``b`` are different entities."""
        return bool(self.apart) and any(frozenset((x, y)) in self.apart for x in a for y in b)


NO_CONSTRAINTS = Constraints()


def cluster_names(variants: list[str], particles: frozenset[str], threshold: float,
                  constraints: Constraints = NO_CONSTRAINTS) -> list[int]:
    """Cluster label per variant (labels are indices of the variant that opened the cluster).

    Average-linkage agglomerative clustering: the closest two clusters merge while their average distance
    is at most ``threshold``. Two names with no word in common are at distance 1, so only clusters that share
    a word are ever compared (a document's names are mostly strangers to each other), each pair's average is
    kept in a heap and recomputed only when one of its clusters grows. Ties go to the pair opened first, as
    in the plain algorithm, and the averages are summed in the same order, so the labels are the same.
    """
    clusters = _NameClusters([name_tokens(v, particles) for v in variants], threshold,
                             [given_name(v, particles) for v in variants])
    if constraints:
        clusters.constrain([phrase_key(v) for v in variants], constraints)
    return clusters.labels()


class _NameClusters:
    """The state of one :func:`cluster_names`: the variants' words, the clusters so far, the heap of pairs."""

    def __init__(self, toks: list[frozenset[str]], threshold: float, given: list[str]) -> None:
        self.toks, self.threshold, self.n, self.given = toks, threshold, len(toks), given
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
        self.forms: list[str] = []
        self.constraints = NO_CONSTRAINTS
        self.unit = list(range(self.n))  # a variant's name: the first variant of its same_entity group, else itself
        self.grouped = False

    def constrain(self, forms: list[str], constraints: Constraints) -> None:
        """The reviewer's say (``forms``: each variant's form key): the variants of one ``same_entity`` group
        start as one cluster (opened by the first of them), and a cannot-link pair keeps two clusters apart."""
        self.forms, self.constraints = forms, constraints
        first: dict[str, int] = {}
        for i, f in enumerate(forms):
            g = constraints.group_of(f)
            if g is None:
                continue
            x = first.setdefault(g, i)
            self.unit[i] = x
            if x != i:
                self.members[x].append(i)
                del self.members[i]
                self.cluster_of[i] = x
        self.grouped = len(first) > 0

    def dist(self, i: int, j: int) -> float:
        return overlap_distance(self.toks[i], self.toks[j])

    def siblings(self, i: int, j: int) -> bool:
        """Two full names whose given names differ, neither's among the other's words, are two people who share
        surnames (``Abel Rosa Teixeira``, ``Sílvia Rosa Teixeira``); an initial fits a name it begins
        (``J. Lopes Dias``, ``João Lopes Dias``), a later given name a full one (``Teresa Costa``)."""
        gi, gj, ti, tj = self.given[i], self.given[j], self.toks[i], self.toks[j]
        if gi == gj or len(ti) < 2 or len(tj) < 2 or not gi or not gj:
            return False
        if len(gi) == 1 or len(gj) == 1:
            return gi[0] != gj[0]
        return gi not in tj and gj not in ti

    def sharing(self, i: int) -> set[int]:
        if self.threshold >= 1.0:  # strangers too may merge
            return set(range(self.n)) - {i}
        return {j for w in self.toks[i] for j in self.by_word[w] if j != i}

    def average(self, x: int, y: int) -> float | None:
        """The two clusters' average distance when they may merge (x opened before y), else None."""
        a, b, toks, threshold = self.members[x], self.members[y], self.toks, self.threshold
        if self.constraints.apart and self.constraints.kept_apart([self.forms[i] for i in a], [self.forms[j] for j in b]):
            return None
        if any(i in self.ambiguous for i in a + b) and not all(toks[i] == toks[j] for i in a for j in b):
            return None
        if any(self.siblings(i, j) for i in a for j in b):
            return None
        if self.grouped:
            return self._average_names(a, b)
        pairs = [self.dist(i, j) for i in a for j in b]
        avg = sum(pairs) / len(pairs)
        if avg > threshold:
            return None
        if any(self.dist(i, j) > threshold and len(toks[i]) > 1 and len(toks[j]) > 1 for i in a for j in b):
            return None
        return avg

    def _average_names(self, a: list[int], b: list[int]) -> float | None:
        """``average`` where a ``same_entity`` group is one name with several forms: its distance to another
        name is that of its nearest form (a nickname in the group does not push the bare surname away)."""
        units: dict[int, list[int]] = {}
        for i in a + b:
            units.setdefault(self.unit[i], []).append(i)
        ua = [units[u] for u in dict.fromkeys(self.unit[i] for i in a)]
        ub = [units[u] for u in dict.fromkeys(self.unit[j] for j in b)]
        dist = {(id(x), id(y)): min(self.dist(i, j) for i in x for j in y) for x in ua for y in ub}
        avg = sum(dist.values()) / len(dist)
        if avg > self.threshold:
            return None
        full = {id(x): any(len(self.toks[i]) > 1 for i in x) for x in ua + ub}
        if any(d > self.threshold and full[x] and full[y] for (x, y), d in dist.items()):
            return None
        return avg

    def push(self, x: int, y: int) -> None:
        if x > y:
            x, y = y, x
        avg = self.average(x, y)
        if avg is not None:
            heapq.heappush(self.heap, (avg, x, y, self.version[x], self.version[y]))

    def labels(self) -> list[int]:
        cluster_of = self.cluster_of
        for i in range(self.n):
            for j in self.sharing(i):
                if i < j and cluster_of[i] != cluster_of[j]:
                    self.push(cluster_of[i], cluster_of[j])
        members, version = self.members, self.version
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
    """What one entity's mentions share: a person's or organisation's name as compared (case, accents, spacing
    aside), an identifier's letters and digits, a full date's value in any layout (``28/06/2024``,
    ``2024-06-28`` and ``28 de junho de 2024`` are one date)."""
    if m.category == "DATE":
        from ..align.values import NUMERIC_DATE, date_value

        # (one date, not a span of days: "1 a 15 de março de 2024" keeps its written key)
        one = len(DIGIT_RUN.findall(m.text)) <= 2 or NUMERIC_DATE.fullmatch(m.text)
        value = date_value(m.text, english=False) if one else None
        if value and None not in value:
            return "DATE:{2:04d}-{1:02d}-{0:02d}".format(*value)
    if m.category in ("NAMEID", "DATE"):
        return m.category + ":" + "".join(ch for ch in fold(m.text) if ch.isalnum())
    return m.category + ":" + phrase_key(m.text)


def organization_aliases(mentions: Iterable[Mention]) -> dict[str, str]:
    """A short form of an organisation (``Grupo RX``, ``Tintas Belmiro``) names the organisation it begins
    (``Grupo RX Engenharia e Obras Ltda.``): the short form's key -> the first longer name it is a prefix of
    (two words at least, whole words). Companies only: public bodies share long prefixes (``Tribunal
    Regional Federal``, ``Tribunal Regional do Trabalho``). A company's name before a dash, with or without its
    legal form (``NORVINHA`` and ``Norvinha, S.A.`` for ``NORVINHA – VINHOS DO NORTE, S.A.``), its one word
    after the dash (an acronym: ``BCA`` for ``BANCO DA COSTA ATLÂNTICA – BCA, S.A.``) and its first word when
    no other company of the scope begins with it (``Lusopack`` for ``Lusopack Holding, S.L.``) name it too."""
    keys: list[str] = []
    companies: set[str] = set()
    for m in mentions:
        if m.category == "ORGANIZATION":
            k = entity_key(m)
            if k not in keys:
                keys.append(k)
            if m.subtype == "COMPANY":
                companies.add(k)
    names: dict[str, list[str]] = {}  # a short name -> the companies it names
    for long in (k for k in keys if k in companies):
        for name in company_short_names(long.split(":", 1)[1]):
            names.setdefault(name, []).append(long)
    out: dict[str, str] = {}
    for k in keys:
        words = ALIAS_WORD.findall(k.split(":", 1)[1])
        named = [n for n in names.get(_without_legal_form(k.split(":", 1)[1]), ()) if n != k]
        if named and len({_without_legal_form(n.split(":", 1)[1]) for n in named}) == 1:  # (one company)
            out[k] = named[0]
            continue
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


def companies_named_short(mentions: list[Mention]) -> None:
    """A name read as a person's or as an unknown name that is a company's short name in the scope, naming no
    other company there (``Prudência Atlântica``, ``Lusopack`` after ``PRUDÊNCIA ATLÂNTICA – COMPANHIA DE
    SEGUROS, S.A.``, ``Lusopack Holding, S.L.``), is the company: an organisation's mention (in place)."""
    named: dict[str, set[str]] = {}
    for m in mentions:
        if m.category == "ORGANIZATION" and m.subtype == "COMPANY":
            for name in company_short_names(phrase_key(m.text)):
                named.setdefault(name, set()).add(_without_legal_form(phrase_key(m.text)))
    if not named:
        return
    for m in mentions:
        if m.category == "PERSON" and len(named.get(phrase_key(m.text), ())) == 1:
            m.category, m.subtype = "ORGANIZATION", "COMPANY"


def _without_legal_form(name: str) -> str:
    """A company's folded name without the legal form after its last comma (``, s.a.``, ``, unipessoal, lda``)."""
    head, comma, tail = name.rpartition(", ")
    return head if comma and len(tail) <= LEGAL_FORM_MOST and len(tail.split()) <= 2 else name


def company_short_names(name: str) -> set[str]:
    """The short names of a company's folded name: before a dash, the one word after it, its first word."""
    core = _without_legal_form(_without_legal_form(name))
    out = set()
    dash = DASH.search(core)
    if dash:
        out.add(core[:dash.start()])
        if len(core[dash.end():].split()) == 1:
            out.add(core[dash.end():])
    first = core.split()[0] if core.split() else ""
    if len(core.split()) > 1 and len(first) >= 4 and first.isalpha():
        out.add(first)
    return {n for n in out if len(n) >= 3 and n != name}


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
    Person names are clustered without their ``particles``; ``constraints``: the reviewer's say."""

    def __init__(self, particles: frozenset[str], threshold: float, constraints: Constraints = NO_CONSTRAINTS) -> None:
        self.particles, self.threshold, self.constraints = particles, threshold, constraints
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
            labels = cluster_names(variants, self.particles, self.threshold, self.constraints)
            for v, lab in zip(variants, labels, strict=True):
                canon["PERSON:" + phrase_key(v)] = "PERSON:" + phrase_key(variants[lab])
        bases = [canon.get(k, k) for k in map(entity_key, mentions)]
        joined = self._joined(mentions, bases, aliases or {}) if self.constraints else None
        for m, key in zip(mentions, bases, strict=True):
            m.entity = self.scope.of(joined[key] if joined is not None else (aliases or {}).get(key, key))

    def _joined(self, mentions: list[Mention], bases: list[str], aliases: dict[str, str]) -> dict[str, str]:
        """Each entity key's final key under the constraints: its alias's (unless a form of one and a form of
        the other are different entities), then its ``same_entity`` group's (``CATEGORY:=group``)."""
        c = self.constraints
        forms: dict[str, set[str]] = {}
        redirect: dict[str, str] = {}
        for m, key in zip(mentions, bases, strict=True):
            forms.setdefault(key, set()).add(phrase_key(m.text))
            g = c.group_of(m.text)
            if g is not None:
                redirect.setdefault(key, f"{m.category}:={g}")
        group_forms: dict[str, set[str]] = {}
        for key, g in redirect.items():
            group_forms.setdefault(g, set()).update(forms[key])
        out = {}
        for key in forms:
            target = aliases.get(key, key)
            final = redirect.get(target, target)
            mates = forms.get(target, {target.split(":", 1)[-1]}) | group_forms.get(final, set())
            if target != key and c.kept_apart(forms[key], mates):
                final = redirect.get(key, key)
            out[key] = final
        return out
