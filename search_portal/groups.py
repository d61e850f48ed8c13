"""Identical pairs: which pairs of the corpus have the same source and target text (a duplicate group).

A translation memory repeats itself (headings, boilerplate clauses: 23,177 of the 40,000 bench pairs repeat an
earlier one), and a result list shows each distinct pair once with how many times the result has it. The
groups are found once, when the index is built: ``groups.bin`` beside the index holds, for each corpus number,
the corpus number of the first pair with the same text (its group's lead), as int32. A search then needs
no text to collapse its hits: one array lookup per hit (``distinct``), or, for a query whose matches depend
on the text alone, only the leads. The tantivy backend stores two fast fields for that: ``lead`` (1 for a
group's first pair, else 0: a search counts its distinct pairs by summing it over its hits) and ``rank``
(the corpus number for a lead, the number of pairs plus it for the others: a search ordered by ``rank``
lists its distinct pairs first, in corpus order, in the same pass that counts its hits).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from ..errors import InputError

GROUPS_FILE = "groups.bin"
LEAD_FIELD, RANK_FIELD = "lead", "rank"  # tantivy's fast fields (above)
SRC_KEY, TGT_KEY, NEXT = b'"src": "', b'"tgt": "', b'", "'  # paranon's record layout: id, doc, langs, src, tgt, ...


def text_key(line: bytes) -> bytes:
    """A 16-byte digest of a ``corpus.jsonl`` line's source and target text. The two values are cut from the
    line as paranon writes it (``json.dumps(rec, ensure_ascii=False)``; inside a JSON string every quote is
    escaped, so ``", "`` ends a value); a line of another layout is parsed and the same bytes made from it."""
    i = line.find(SRC_KEY)
    t = line.find(TGT_KEY, i) if i >= 0 else -1
    j = line.find(NEXT, t + len(TGT_KEY)) if t >= 0 else -1
    if j < 0 or t != line.find(b'", ', i + len(SRC_KEY)) + 3:  # not "src" then "tgt" next to it
        rec = json.loads(line)
        text = (f'"src": {json.dumps(rec["src"], ensure_ascii=False)}, "tgt": '
                f'{json.dumps(rec["tgt"], ensure_ascii=False)}').encode()
        return hashlib.blake2b(text[:-1], digest_size=16).digest()
    return hashlib.blake2b(line[i:j], digest_size=16).digest()


def write_groups(corpus: Path, target: Path) -> np.ndarray:
    """Write ``target/groups.bin`` for ``corpus`` (``corpus.jsonl``) and return the groups (each corpus
    number's lead). One pass over the lines, no JSON parsing: 40,000 pairs in about 0.08 CPU seconds."""
    keys = bytearray()
    with open(corpus, "rb") as fh:
        for no, line in enumerate(fh, 1):
            try:
                keys += text_key(line)
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"{corpus}:{no}: not a paranon record ({exc})") from None
    digests = np.frombuffer(bytes(keys), dtype=[("a", np.uint64), ("b", np.uint64)])
    if not len(digests):
        groups = np.empty(0, dtype=np.int32)
    else:
        _, first, inverse = np.unique(digests, return_index=True, return_inverse=True)
        groups = first[inverse.ravel()].astype(np.int32)  # np.unique's index is each value's first position
    (target / GROUPS_FILE).write_bytes(groups.tobytes())
    return groups


class Groups:
    """An index's groups (``groups.bin``) and each group's size in the corpus. An index built before the
    file existed has every pair in a group of its own (nothing is collapsed until it is rebuilt)."""

    def __init__(self, folder: Path, n_pairs: int) -> None:
        path = folder / GROUPS_FILE
        if path.exists() and path.stat().st_size == 4 * n_pairs:
            self.lead = np.fromfile(path, dtype=np.int32).astype(np.int64)
            self.known = True
        else:
            self.lead = np.arange(n_pairs, dtype=np.int64)
            self.known = False
        self.size = np.bincount(self.lead, minlength=n_pairs)

    def distinct(self, numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Of hits given by corpus number in corpus order: the positions of each group's first hit, in order,
        and how many hits each of those groups has."""
        if not len(numbers):
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        _, first, counts = np.unique(self.lead[numbers], return_index=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        return first[order], counts[order]
