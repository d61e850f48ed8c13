"""The run's counts for ``report.json``, added pair by pair where the pairs are written and merged in order."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .align.finish import PairResult

UNTRANSFERRED_EXAMPLES = 1000  # units listed in the report by the mention they left untransferred


class Stats:
    """Counts for the report; small (no per-entity state: entities are counted in the key store)."""

    def __init__(self) -> None:
        self.src: Counter = Counter()
        self.tgt: Counter = Counter()
        self.rules: Counter = Counter()
        self.steps: Counter = Counter()
        self.untransferred: Counter = Counter()
        self.untransferred_units: list[dict] = []
        self.guard_masks = 0
        self.consistency_tgt = 0
        self.target_only = 0
        self.written = 0

    def add(self, r: PairResult) -> None:
        self.written += 1
        for m in r.anonymized.src_mentions:
            self.src[m.category] += 1
            self.rules[f"{m.recognizer}|{m.rule}"] += 1
        for m in r.anonymized.tgt_mentions:
            self.tgt[m.category] += 1
        self.steps.update(r.transfer.steps)
        self.guard_masks += r.transfer.guard_masks
        self.consistency_tgt += r.transfer.steps["consistency"]
        self.target_only += r.transfer.target_only
        for m in r.transfer.untransferred:
            self.untransferred[m.category] += 1
            if len(self.untransferred_units) < UNTRANSFERRED_EXAMPLES:
                self.untransferred_units.append({"id": r.anonymized.id, "category": m.category, "entity": m.entity})

    def to_json(self) -> dict:
        return {k: (dict(v) if isinstance(v, Counter) else v) for k, v in vars(self).items()}

    @classmethod
    def merged(cls, parts: list[dict]) -> Stats:
        """The counts of ``parts`` (``to_json``'s), in order."""
        out = cls()
        for d in parts:
            out.merge(d)
        return out

    def merge(self, d: dict) -> None:
        for k, v in d.items():
            cur = getattr(self, k)
            if isinstance(cur, Counter):
                cur.update(v)
            elif isinstance(cur, list):
                cur += v[: max(0, UNTRANSFERRED_EXAMPLES - len(cur))]
            else:
                setattr(self, k, cur + v)

