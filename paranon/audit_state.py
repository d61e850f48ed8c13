"""What an audit keeps for the next one: the hits of every unit of text it matched in the corpus records' job
(``corpus.jsonl`` and the indexes that store the records again: ``audit.GroupScan``), with the originals and
the allowed strings it looked for. ``paranon apply`` changes a few records and a few originals; its audit
matches again only what may have changed, and finds what a full audit finds:

* a unit whose text is not in the state (a record written again) is matched (the state is keyed by the text);
* a unit whose text is, and in which no original or allowed string that came or went occurs (matched in its
  folded text, word-bounded, as the audit matches), has the hits it had: matching it with the new originals
  gives at every position the same match (an alternation's match at a position depends only on the forms that
  match there), and the same allowed strings around it (a hit "inside an allowed string" as before);
* any other unit is matched again. A new original (a span a reviewer masked) is thus looked for in every unit
  of every file: the other files are scanned whole, as always.

The state holds originals (its hits' keys): it lives in the run's private checkpoint (``STATE_FILE``, owner-only,
never scanned, never served).
"""

from __future__ import annotations

import os
import pickle
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from .audit_scan import Hit, word_matcher
from .text import fold_same_length

STATE_FILE = "audit-state.pkl"  # in the run's checkpoint
VERSION = 1  # the scanner's matching and folding; a state of another version is not used
SEPARATOR = "\x00"  # between units when they are checked together: neither a word character nor white space

Units = dict[str, tuple[tuple[Hit, int], ...]]


@dataclass
class AuditState:
    keys: frozenset[str]  # the folded originals looked for
    allowed: frozenset[str]  # the allowed strings that make a hit "inside" (only those holding an original)
    units: Units  # unit text -> its hits
    version: int = VERSION

    @classmethod
    def load(cls, path: Path) -> AuditState | None:
        try:
            with open(path, "rb") as fh:
                state = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, AttributeError):
            return None
        return state if isinstance(state, cls) and state.version == VERSION else None

    def save(self, path: Path) -> None:
        """Written owner-only under a temporary name, renamed into place."""
        part = Path(f"{path}.part")
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as fh:
            pickle.dump(self, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(part, path)

    def still_valid(self, keys: frozenset[str], allowed: frozenset[str]) -> Units:
        """The units whose hits hold when ``keys`` are looked for with ``allowed``: those in which no key or
        allowed string that came or went occurs."""
        changed = (self.keys ^ keys) | (self.allowed ^ allowed)
        if not changed:
            return self.units
        matcher = word_matcher(changed)
        assert matcher is not None
        texts = list(self.units)
        starts, n = [], 0
        for t in texts:
            starts.append(n)
            n += len(t) + 1
        # one text, the units between separators that no match can run over; folded as the scanner folds
        folded = fold_same_length(SEPARATOR.join(texts))
        stale = {texts[bisect_right(starts, m.start()) - 1] for m in matcher.finditer(folded)}
        return {u: hits for u, hits in self.units.items() if u not in stale}


def prior_units(path: Path | None, keys: frozenset[str], allowed: frozenset[str]) -> Units:
    """The units of the state at ``path`` (none there: no unit) whose hits hold for ``keys`` and ``allowed``."""
    state = AuditState.load(path) if path is not None else None
    return state.still_valid(keys, allowed) if state is not None else {}
