"""The search-backend interface: what ``search.Searcher`` asks of an index, whichever engine holds it.

An index folder (``OUTDIR/index``) holds the engine's files and, the same for every engine, the side files
built from ``corpus.jsonl``: ``stems.json``, ``translations.json``, ``stats.json``, ``groups.bin`` and ``words/`` (each
field's vocabulary, for wildcards). ``backend.json`` names the engine (none: Whoosh, as before it existed).

Queries reach a backend already parsed (Whoosh's query parser and query objects are the portal's query
language: terms, phrases with slop, AND/OR/NOT, inflected forms as ORs of terms, wildcards expanded to
ORs of index words by the budget) and come back as document numbers in corpus order. An engine:

* ``open(folder)`` -> an index object with ``n_pairs``, ``numbers(docs)`` (the hits' corpus numbers),
  ``leads`` (whether the index marks each duplicate group's first pair, ``groups.py``) and ``view()``: a per-thread reader with
  ``docs(query) -> np.ndarray`` (the matching document numbers, in corpus order; the numbers are the
  engine's own), ``record(n) -> (record, packed tokens or None)`` and ``pair(id) -> record or None``;
* ``build(target, corpus, first, quiet)`` -> writes the engine's files and the side files into ``target``.

Backends: ``tantivy`` (``tantivy_index.py``; the default, a core dependency) and ``whoosh`` (``indexer.py``,
``docsets.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from .docsets import DocSets, HotPostings
from .indexer import open_index
from .translations import unpack_tokens

BACKENDS = ("whoosh", "tantivy")
BACKEND_FILE = "backend.json"


def backend_of(folder: Path) -> str:
    path = folder / BACKEND_FILE
    if not path.exists():
        return "whoosh"
    return json.loads(path.read_text(encoding="utf-8"))["backend"]


def check_backend(name: str) -> str:
    """``name`` if it is a backend that can run here, else an ``InputError`` saying what to do."""
    if name not in BACKENDS:
        raise InputError(f"index.backend: unknown backend {name!r} (use {' or '.join(BACKENDS)})")
    if name == "tantivy":
        try:
            import tantivy  # noqa: F401
        except ImportError:
            raise InputError("index.backend: tantivy is not installed (pip install 'paranon[tantivy]')") from None
    return name


def open_backend(folder: Path) -> Any:
    name = backend_of(folder)
    if name == "tantivy":
        check_backend(name)
        from .tantivy_index import TantivyIndex

        return TantivyIndex(folder)
    return WhooshIndex(folder)


def corpus_order(docs: np.ndarray, order: np.ndarray, in_order: bool) -> np.ndarray:
    """Document numbers ``docs`` in corpus order (``order``: each document's corpus number). Where the
    numbers follow the corpus (``in_order``) that is ascending order, which the fast path's arrays already
    have: no sort (300,000 hits: 1.2 ms of CPU to sort by corpus number, 0.09 ms to check the order)."""
    if in_order:
        return docs if np.all(docs[1:] > docs[:-1]) else np.sort(docs)
    return docs[np.argsort(order[docs], kind="stable")]


class WhooshIndex:
    """The Whoosh index (read in place) with its hot postings and corpus-order column."""

    name = "whoosh"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ix = open_index(folder)
        self.hot = HotPostings(folder)
        with self.ix.reader() as reader:  # corpus order by document number, to list hits in
            self.order = np.fromiter(reader.column_reader("order"), dtype=np.int64, count=reader.doc_count_all())
        # a build commits its parts' segments in corpus order, so its document numbers follow the corpus
        self.in_order = bool(np.all(self.order[1:] > self.order[:-1]))
        self.n_pairs = len(self.order)
        self.leads = False  # no lead field: a search groups all its hits (groups.py)

    def numbers(self, docs: np.ndarray) -> np.ndarray:
        """Hits' corpus numbers (from Whoosh document numbers)."""
        return self.order[docs]

    def view(self) -> WhooshView:
        return WhooshView(self)

    def reader(self):
        return self.ix.reader()


class WhooshView:
    """One thread's Whoosh searcher (opening one costs ~10 ms) and its document sets."""

    def __init__(self, index: WhooshIndex) -> None:
        self.searcher = index.ix.searcher()
        self.docsets = DocSets(self.searcher, index.hot)
        self.order, self.in_order = index.order, index.in_order

    def docs(self, query: Any) -> np.ndarray:
        docs = self.docsets.evaluate(query)
        if docs is None:  # a query shape the fast path leaves to Whoosh
            docs = np.fromiter(self.searcher.docs_for_query(query), dtype=np.int64)
        return corpus_order(docs, self.order, self.in_order)

    def record(self, docnum: int) -> tuple[dict[str, Any], Any]:
        stored = self.searcher.stored_fields(int(docnum))
        packed = stored.get("tokens")
        return json.loads(stored["rec"]), unpack_tokens(packed) if packed else None

    def pair(self, pair_id: str) -> dict[str, Any] | None:
        r = self.searcher.document(id=pair_id)
        return json.loads(r["rec"]) if r else None
