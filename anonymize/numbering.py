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

from collections.abc import Iterable

from ..corpora.model import Mention
from .lexicons import fold

PARTICLES = {"da", "de", "do", "dos", "das", "e", "di", "van", "von", "der", "del", "y", "d'"}


def name_tokens(text: str) -> frozenset[str]:
    """``PÉREZ RODRÍGUEZ, Pedro`` -> {pedro, perez, rodriguez}."""
    if "," in text:
        head, _, given = text.partition(",")
        text = f"{given} {head}"
    words = [w.strip(".'’-") for w in fold(text).replace("-", " ").split()]
    return frozenset(w for w in words if w and w not in PARTICLES)


def overlap_distance(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 1.0
    return 1.0 - len(a & b) / min(len(a), len(b))


def cluster_names(variants: list[str], threshold: float = 0.45) -> list[int]:
    """Cluster label per variant (labels are indices of the variant that opened the cluster)."""
    toks = [name_tokens(v) for v in variants]
    n = len(variants)
    clusters: list[list[int]] = [[i] for i in range(n)]

    def dist(i: int, j: int) -> float:
        return overlap_distance(toks[i], toks[j])

    # a bare single-token name that fits two full names which are not one person is kept apart
    ambiguous = set()
    for i in range(n):
        if len(toks[i]) == 1:
            fits = [j for j in range(n) if j != i and len(toks[j]) > 1 and dist(i, j) == 0]
            if any(dist(a, b) > threshold for a in fits for b in fits):
                ambiguous.add(i)
    while True:
        best = None
        for x in range(len(clusters)):
            for y in range(x + 1, len(clusters)):
                a, b = clusters[x], clusters[y]
                if any(i in ambiguous for i in a + b) and len(a) + len(b) > 1:
                    if not all(toks[i] == toks[j] for i in a for j in b):
                        continue
                pairs = [dist(i, j) for i in a for j in b]
                avg = sum(pairs) / len(pairs)
                if avg > threshold:
                    continue
                if any(dist(i, j) > threshold and len(toks[i]) > 1 and len(toks[j]) > 1 for i in a for j in b):
                    continue
                if best is None or avg < best[0]:
                    best = (avg, x, y)
        if best is None:
            break
        _, x, y = best
        clusters[x] = clusters[x] + clusters[y]
        del clusters[y]
    label = [0] * n
    for c in clusters:
        for i in c:
            label[i] = min(c)
    return label


def entity_key(m: Mention) -> str:
    if m.category in ("NAMEID", "DATE"):
        return m.category + ":" + "".join(ch for ch in fold(m.text) if ch.isalnum())
    return m.category + ":" + " ".join(fold(m.text).split())


class Numberer:
    """Gives numbers within a scope. ``start_scope`` resets them (segment/document scopes)."""

    def __init__(self, threshold: float = 0.45) -> None:
        self.threshold = threshold
        self.numbers: dict[str, int] = {}
        self.next = 1

    def start_scope(self) -> None:
        self.numbers = {}
        self.next = 1

    def assign(self, mentions: Iterable[Mention], aliases: dict[str, str] | None = None) -> None:
        """Set ``entity`` on mentions given in order of appearance. ``aliases`` maps acronym keys to long forms."""
        mentions = list(mentions)
        persons = [m for m in mentions if m.category == "PERSON"]
        variants = sorted({m.text for m in persons}, key=lambda v: next(i for i, m in enumerate(persons) if m.text == v))
        canon: dict[str, str] = {}
        if variants:
            labels = cluster_names(variants, self.threshold)
            for v, lab in zip(variants, labels, strict=True):
                canon["PERSON:" + " ".join(fold(v).split())] = "PERSON:" + " ".join(fold(variants[lab]).split())
        aliases = aliases or {}
        for m in mentions:
            key = entity_key(m)
            key = canon.get(key, key)
            key = aliases.get(key, key)
            if key not in self.numbers:
                self.numbers[key] = self.next
                self.next += 1
            m.entity = self.numbers[key]
