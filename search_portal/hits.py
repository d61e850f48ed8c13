"""A search's hits: read a page at a time where the backend can (``LazyDocs``), and the distinct pairs among
them (``Distinct``: each duplicate group of ``groups.py`` once, with how many hits it has)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .groups import Groups


class LazyDocs:
    """A search's hits in corpus order, for a backend that counts its hits and reads a page of them ordered
    (``counts``/``page``: tantivy): only what is shown or downloaded is read. Pages are read through the
    searcher's view of the thread asking (a remembered search is shared by the server's threads)."""

    def __init__(self, searcher: Any, query: Any, counts: list[int], by: str = "order") -> None:
        self.searcher, self.query, self.counts, self.by = searcher, query, counts, by  # by: see page()
        self.total = sum(counts)

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, span: slice) -> np.ndarray:
        start, stop, _ = span.indices(self.total)
        if stop <= start:
            return np.empty(0, dtype=np.int64)
        with self.searcher._view() as v:
            return v.page(self.query, self.counts, start, stop - start, self.by)

    def __iter__(self):
        start, size = 0, 100  # a first page small (the panel's sample), then large ones (downloads)
        while start < self.total:
            yield from self[start:start + size]
            start += size
            size = 10_000


@dataclass
class Distinct:
    """The distinct pairs among a search's hits, in corpus order (each duplicate group's first hit), and how
    many hits each has: ``counts`` per distinct pair, or, where every pair of a group is a hit, ``sizes``
    (each corpus number's group size) looked up for the pairs shown."""

    docs: np.ndarray | LazyDocs
    counts: np.ndarray | None = None
    sizes: np.ndarray | None = None
    numbers: Any = None  # the backend's corpus numbers of its document numbers (for ``sizes``)

    def __len__(self) -> int:
        return len(self.docs)

    def page(self, start: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Document numbers of distinct pairs ``start`` to ``start + n`` and each one's count of hits."""
        docs = np.asarray(self.docs[start:start + n], dtype=np.int64)
        if self.counts is not None:
            return docs, self.counts[start:start + n]
        return docs, self.sizes[self.numbers(docs)]


def fast_path(found: Any, groups: Groups, index: Any) -> bool:
    """Whether a search's distinct pairs can be counted and paged without reading its hits (above)."""
    return isinstance(found.docs, LazyDocs) and found.textual and index.leads and groups.known


def distinct(searcher: Any, found: Any, groups: Groups, index: Any) -> Distinct:
    """The distinct pairs of a search (``search.Found``). Where its hits depend on the text alone and the
    index marks each group's first pair (tantivy), only those are counted (a sum over the hits) and paged
    (the hits ordered by ``rank``: leads first), each with its group's size: no hit is read but the ones
    shown. Otherwise every hit is grouped (one array lookup each)."""
    docs = found.docs
    if fast_path(found, groups, index):
        with searcher._view() as v:
            leads = LazyDocs(searcher, found.query, v.leads(found.query), by="rank")
        return Distinct(leads, sizes=groups.size, numbers=index.numbers)
    if isinstance(docs, LazyDocs):  # a filter decides which of a group's pairs are hits: read them all
        with searcher._view() as v:
            docs = found.docs = v.docs(found.query)
    first, counts = groups.distinct(index.numbers(docs))
    return Distinct(docs[first], counts)
