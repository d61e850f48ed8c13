"""Boolean queries evaluated on arrays of document numbers: the portal's fast path to a query's hits.

Whoosh's collector visits matching documents one Python call at a time, and listing hits in corpus
order costs a column lookup each: about 10 µs a matching pair. A common word (``regulamento``) matches
thousands of pairs, and every search needs all of them, for the total and for corpus order. Here a
term's postings become a numpy array of document numbers; AND, OR and NOT become array set operations
and corpus order one array lookup. Phrases are checked on the pairs that have all of their words, from
the postings' stored positions.

Postings come from two places:

* ``hot/``, beside the index: the frequent terms' document numbers and encoded positions as flat arrays
  (``write_hot``, at index time), memory-mapped. Whoosh stores postings in pickled blocks of 128 with
  their positions, about 60 µs a block to read; a word in most pairs (``de``, ``shall``) would cost
  milliseconds on every search that names it.
* Whoosh's posting blocks, read a block at a time, for the rest (fewer than ``HOT_DF`` pairs each: one or
  two blocks).

Queries of other shapes (ranges, fuzzy terms) make ``evaluate`` return None, and the caller falls back to
Whoosh's own matching; so does an index with deleted documents (paranon's never has: it is rebuilt).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import reduce
from pathlib import Path
from typing import Any

import numpy as np
from whoosh import query as wq
from whoosh.codec.whoosh3 import W3LeafMatcher

from .budget import check

EMPTY = np.empty(0, dtype=np.int64)
HOT_DIR = "hot"
HOT_DF = 256  # terms in at least this many pairs (two posting blocks) are kept as arrays
HOT_FIELDS = ("src", "tgt")


def _blocks(m: Any) -> Iterator[tuple[np.ndarray, list[bytes]]]:
    """A fresh leaf matcher's postings, block by block: (document numbers, encoded values; empty ones for a
    format that stores none).

    For Whoosh's on-disk matcher this reads each block's data tuple as stored (ids delta-encoded, values
    as written), where its own ``all_ids`` steps through them one posting at a time. Any other matcher (a
    term with a single, inlined posting) goes through the public interface."""
    if type(m) is W3LeafMatcher:
        while m.is_active():
            m._read_data()
            ids, _, values = m._data
            yield np.cumsum(np.asarray(ids, dtype=np.int64)), values if values is not None else [b""] * len(ids)
            m._next_block()
        return
    items = list(m.all_items())
    yield np.array([i for i, _ in items], dtype=np.int64), [v or b"" for _, v in items]


def _leaf_postings(leaves: list[tuple[Any, int]], field: str, text: str) -> tuple[np.ndarray, list[bytes]]:
    """A term's global document numbers (sorted: segments follow each other) and encoded values."""
    ids: list[np.ndarray] = []
    values: list[bytes] = []
    for reader, offset in leaves:
        if (field, text) in reader:
            for block_ids, block_values in _blocks(reader.postings(field, text)):
                ids.append(block_ids + offset)
                values.extend(block_values)
    return (np.concatenate(ids) if ids else EMPTY), values


def write_hot(searcher: Any, folder: Path, fields: tuple[str, ...] = HOT_FIELDS, min_df: int = HOT_DF) -> None:
    """Write ``folder/hot``: per field, the postings of the terms in at least ``min_df`` pairs."""
    (folder / HOT_DIR).mkdir(exist_ok=True)
    for field in fields:
        write_hot_field(searcher, folder, field, min_df)


def write_hot_field(searcher: Any, folder: Path, field: str, min_df: int = HOT_DF) -> None:
    """One field's hot postings in ``folder/hot`` (which exists): ``docs`` (int32 document numbers, term
    after term), ``voff``/``vals`` (int64 offsets into one byte string of each posting's encoded positions)
    and ``terms.json`` (each term's first and last+1 posting). Written block by block as read, so memory
    stays flat however large the corpus. Fields are independent: the index builder writes them in parallel."""
    out = folder / HOT_DIR
    if field not in searcher.schema:
        return
    leaves = [(sub.reader(), offset) for sub, offset in searcher.leaf_searchers()]
    terms = sorted(t.decode("utf-8") if isinstance(t, bytes) else t
                   for t, info in searcher.reader().iter_field(field) if info.doc_frequency() >= min_df)
    spans: dict[str, list[int]] = {}
    n = end = 0
    with open(out / f"{field}.docs.bin", "wb") as fd, open(out / f"{field}.voff.bin", "wb") as fo, \
            open(out / f"{field}.vals.bin", "wb") as fv:
        fo.write(np.zeros(1, dtype=np.int64).tobytes())
        for term in terms:
            start = n
            for reader, offset in leaves:
                if (field, term) not in reader:
                    continue
                for ids, values in _blocks(reader.postings(field, term)):
                    fd.write((ids + offset).astype(np.int32).tobytes())
                    lengths = np.fromiter((len(v) for v in values), dtype=np.int64, count=len(ids))
                    fo.write((end + np.cumsum(lengths)).tobytes())
                    fv.write(b"".join(values))
                    end += int(lengths.sum())
                    n += len(ids)
            spans[term] = [start, n]
    (out / f"{field}.terms.json").write_text(json.dumps(spans, ensure_ascii=False), encoding="utf-8")


def _mapped(path: Path, dtype: Any) -> np.ndarray:
    """A raw array file memory-mapped (a plain view: a memmap's own indexing costs a microsecond a call)."""
    if path.stat().st_size == 0:
        return np.empty(0, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r").view(np.ndarray)


class HotPostings:
    """``hot/`` memory-mapped (shared by every thread: read only)."""

    def __init__(self, folder: Path) -> None:
        hot = folder / HOT_DIR
        self.terms: dict[str, dict[str, list[int]]] = {}
        self.arrays: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        # an index built before hot postings existed has none: every term is then read from Whoosh
        for path in sorted(hot.glob("*.terms.json")):
            field = path.name.split(".")[0]
            self.terms[field] = json.loads(path.read_text(encoding="utf-8"))
            self.arrays[field] = (_mapped(hot / f"{field}.docs.bin", np.int32),
                                  _mapped(hot / f"{field}.voff.bin", np.int64),
                                  _mapped(hot / f"{field}.vals.bin", np.uint8))

    def get(self, field: str, text: str) -> tuple[np.ndarray, Any] | None:
        """(document numbers, positions getter by index) of a hot term, or None."""
        span = self.terms.get(field, {}).get(text)
        if span is None:
            return None
        a, b = span
        docs, voff, vals = self.arrays[field]

        def value(k: int) -> bytes:
            return vals[voff[a + k]:voff[a + k + 1]].tobytes()

        return np.asarray(docs[a:b], dtype=np.int64), value


class DocSets:
    """One searcher's document sets. Not shared between threads (nor is the searcher)."""

    def __init__(self, searcher: Any, hot: HotPostings | None = None) -> None:
        self.searcher = searcher
        self.hot = hot
        self.leaves = [(sub.reader(), offset) for sub, offset in searcher.leaf_searchers()]
        self.usable = not any(r.has_deletions() for r, _ in self.leaves)
        self.n_docs = searcher.doc_count_all()
        self._all: np.ndarray | None = None

    # -- terms -------------------------------------------------------------
    def postings(self, field: str, text: str) -> tuple[np.ndarray, Any]:
        """A term's sorted global document numbers, and a function giving the k-th one's encoded value."""
        check()  # the request's deadline: a query may name hundreds of terms
        got = self.hot.get(field, text) if self.hot is not None else None
        if got is not None:
            return got
        ids, values = _leaf_postings(self.leaves, field, text)
        return ids, values.__getitem__

    def term(self, field: str, text: str) -> np.ndarray:
        return self.postings(field, text)[0]

    def every(self) -> np.ndarray:
        if self._all is None:
            self._all = np.arange(self.n_docs, dtype=np.int64)
        return self._all

    # -- queries -----------------------------------------------------------
    def evaluate(self, q: Any) -> np.ndarray | None:
        """The sorted document numbers matching ``q``, or None for a query shape not handled here."""
        if not self.usable:
            return None
        try:
            return self._eval(q)
        except _Unsupported:
            return None

    def _eval(self, q: Any) -> np.ndarray:
        if q is None or q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
            return EMPTY
        if isinstance(q, wq.Every):
            return self.every()
        if type(q) is wq.Term:
            return self.term(q.fieldname, _text(q.text))
        if isinstance(q, (wq.Wildcard, wq.Prefix)):
            return _union([self.term(f, _text(t)) for f, t in q.expanded_terms(self.searcher.reader())])
        if isinstance(q, (wq.Phrase, wq.Sequence)):
            return self._sequence(q)
        if isinstance(q, wq.Not):
            return np.setdiff1d(self.every(), self._eval(q.query), assume_unique=True)
        if isinstance(q, wq.AndNot):
            return np.setdiff1d(self._eval(q.a), self._eval(q.b), assume_unique=True)
        if isinstance(q, wq.AndMaybe):
            return self._eval(q.a)
        if type(q) is wq.And:
            positive = [c for c in q.subqueries if not isinstance(c, wq.Not)]
            negative = [c.query for c in q.subqueries if isinstance(c, wq.Not)]
            found = self._eval(positive[0]) if positive else self.every()
            for c in positive[1:]:
                if not len(found):
                    break
                found = np.intersect1d(found, self._eval(c), assume_unique=True)
            for c in negative:
                found = np.setdiff1d(found, self._eval(c), assume_unique=True)
            return found
        if type(q) is wq.Or and not getattr(q, "minmatch", 0):
            return _union([self._eval(c) for c in q.subqueries])
        raise _Unsupported(type(q).__name__)

    @staticmethod
    def _words(q: Any) -> tuple[str, list[list[str]], int]:
        """A phrase's field, its words (each a list of alternatives: inflected forms) and slop."""
        if isinstance(q, wq.Phrase):
            return q.fieldname, [[_text(w)] for w in q.words], q.slop
        words, field = [], None
        for c in q.subqueries:
            alts = [c] if type(c) is wq.Term else list(c.subqueries) if type(c) is wq.Or else None
            if alts is None or any(type(a) is not wq.Term for a in alts):
                raise _Unsupported("sequence of non-terms")
            field = field or alts[0].fieldname
            if any(a.fieldname != field for a in alts):
                raise _Unsupported("sequence over several fields")
            words.append([_text(a.text) for a in alts])
        return field, words, q.slop

    def _sequence(self, q: Any) -> np.ndarray:
        """Pairs with the words in order, at most ``slop`` positions apart. The pairs with every word
        (array intersection) are the candidates; then, word by word in phrase order, each candidate's
        positions become keys ``candidate << 20 | position`` and a key survives if the previous word has one
        at most ``slop`` before it (one sorted search for all); candidates without survivors drop out, so
        later words decode positions for fewer pairs."""
        field, words, slop = self._words(q)
        fmt = self.searcher.schema[field].format
        if not fmt.supports("positions"):
            raise _Unsupported("field without positions")
        postings = [[self.postings(field, w) for w in alts] for alts in words]
        cand = reduce(lambda a, b: np.intersect1d(a, b, assume_unique=True),
                      (_union([ids for ids, _ in alts]) for alts in postings))
        alive = np.arange(len(cand))
        keys = None
        for alts in postings:
            if not len(alive):
                return EMPTY
            who: list[int] = []
            where: list[int] = []
            for ids, value in alts:
                check()
                k = np.searchsorted(ids, cand[alive]) if len(ids) else np.zeros(len(alive), dtype=np.int64)
                k[k >= len(ids)] = 0
                for c, kk in zip(alive[ids[k] == cand[alive]] if len(ids) else (), k[ids[k] == cand[alive]]
                                 if len(ids) else (), strict=True):
                    ps = fmt.decode_positions(value(int(kk)))
                    who.extend([int(c)] * len(ps))
                    where.extend(ps)
            here = np.unique((np.array(who, dtype=np.int64) << 20) | np.array(where, dtype=np.int64))
            if keys is not None:
                before = np.searchsorted(keys, here) - 1  # the previous word's last key before each
                ok = before >= 0
                ok[ok] = here[ok] - keys[before[ok]] <= slop  # another pair's key is >= 2**20 - position away
                here = here[ok]
            keys = here
            alive = np.unique(keys >> 20)
        return cand[alive]


def _union(arrays: list[np.ndarray]) -> np.ndarray:
    """The sorted union of sorted unique arrays."""
    arrays = [a for a in arrays if len(a)]
    if not arrays:
        return EMPTY
    return arrays[0] if len(arrays) == 1 else np.unique(np.concatenate(arrays))


def _text(t: str | bytes) -> str:
    return t.decode("utf-8") if isinstance(t, bytes) else t


class _Unsupported(Exception):
    """A query shape the fast path leaves to Whoosh."""
