"""Search over the index: hits with highlights on both sides and the translations panel.

The highlight on the searched side comes from the query's matched terms; the
highlight on the other side comes from the stored word alignment (tokens as in
``paranon.align.transfer.tokenize``, the same tokenization the alignment uses).
"""

from __future__ import annotations

import json
import os
import threading
import time
from bisect import bisect_right
from collections import Counter, OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Any

import numpy as np
import regex
from whoosh import query as wq
from whoosh.qparser import MultifieldParser, QueryParser
from whoosh.qparser.plugins import FieldsPlugin, RangePlugin, WildcardPlugin

from ..text import fold_same_length, phrase_key, tokenize
from . import budget as work
from .backends import open_backend
from .budget import Budget, Lexicon, QueryError
from .exact import exact_leaves, exact_match, is_null, positive, word_finder
from .groups import Groups
from .hits import Distinct, LazyDocs, distinct
from .indexer import (
    STEMS_FILE,
    TOKEN_PATTERN,
    StatsBuilder,
    exact_analyzer,
    load_lexicon,
    load_stats,
    make_schema,
    stem_groups,
    stemmer,
)
from .query import FILTER_CATEGORIES, read_query
from .translations import Tally, aligned, link_maps, load_table, pair_tokens, panel, side_words, table_counts

CATEGORIES = FILTER_CATEGORIES
MAX_QUERY = Budget.max_chars
FIRST_KEPT = 100  # highlighted hits a search keeps for its first pages
TRANSLATION_SAMPLE = 50  # hits the panel counts when the translations table cannot answer
WORD = regex.compile(TOKEN_PATTERN)  # the exact-form analyzer's words


PARSE_SCHEMA = make_schema()  # the query language's fields and analyzers, whichever backend holds the index


@dataclass
class Hit:
    rec: dict[str, Any]
    src_hl: list[list[int]]
    tgt_hl: list[list[int]]
    translation: str
    doc: int = -1  # its document number, where it was highlighted for the panel (``Found.first``)


@dataclass
class Found:
    """One search, as remembered: every hit in corpus order (document numbers; a page is read and
    highlighted when shown), the panel's counts, and what highlighting needs."""

    docs: np.ndarray | LazyDocs
    counts: Tally
    sides: list[str]
    finders: dict[str, Any]
    leaves: dict[str, tuple[set[str], list[Any]]] | None
    sampled: int | None = None  # the panel counted this many first hits (None: every hit, from the table)
    first: list[Hit] = dc_field(default_factory=list)  # the first hits, highlighted while counting the panel
    panel_hits: int | None = None  # the hits the panel's shares are of (None: every hit of the search)
    query: Any = None  # what found the hits
    textual: bool = False  # the hits depend on the pairs' text alone (no category or document filter)
    distinct: Distinct | None = None  # the distinct pairs among the hits, when first asked for (hits.py)


class Searcher:
    def __init__(self, outdir: str | Path, cache_size: int = 128, budget: Budget | None = None) -> None:
        """``cache_size`` searches are remembered (least recently used out; a rebuilt index starts afresh),
        so turning pages, filtering by a translation and downloading a result do not search again.
        ``budget``: what one search may cost (``budget.py``)."""
        self.outdir = Path(outdir)
        self.cache_size = cache_size
        self.budget = budget or Budget()
        self._gate = work.Gate(str(self.outdir.resolve()))  # long searches one at a time, server-wide
        self._cache: OrderedDict[tuple, tuple[int, list[Hit], Counter]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._ix = None
        self._real = None
        self._link, self._link_name = str(self.outdir / "index"), None  # the link, and the name it last held
        self._stems: dict[str, tuple[Any, dict[str, list[str]]]] = {}
        # analyzers are built once, and what they make of each word is remembered: highlighting runs
        # over a few hundred hits per search, and words repeat across a corpus
        self._analyzers: dict[str, Any] = {"exact": exact_analyzer()}
        self._word_terms: dict[tuple[str, str], tuple[str, ...]] = {}
        self._words: dict[str, Any] = {}  # per language, which words may stand alone as a translation
        self._local = threading.local()
        self._parsers: dict[tuple, QueryParser] = {}

    def _terms_of(self, kind: str, word: str) -> tuple[str, ...]:
        """The index terms ``kind``'s analyzer makes of one word (all analyzers work word by word)."""
        key = (kind, word)
        got = self._word_terms.get(key)
        if got is None:
            if len(self._word_terms) > 500_000:
                self._word_terms.clear()
            got = self._word_terms[key] = tuple(t.text for t in self._analyzers[kind](word))
        return got

    @contextmanager
    def _view(self):
        """The backend's reader for this thread (``backends.py``), kept per thread and refreshed when the
        index changes (opening a Whoosh searcher costs ~10 ms)."""
        ix = self.ix
        v = getattr(self._local, "view", None)
        if v is None or getattr(self._local, "ix", None) is not ix:
            v = self._local.view = ix.view()
            # what belongs to this index, kept with its reader (a rebuilt index swaps them all at once)
            self._local.table = self._table
            self._local.ix = ix
        yield v

    @contextmanager
    def _searcher(self):
        """The Whoosh searcher of this thread's view (Whoosh backend only)."""
        with self._view() as v:
            yield v.searcher

    @property
    def ix(self):
        """The open index (a backend's index object), reopened when the ``index`` link has been swapped."""
        link = self._link
        try:  # asked several times a search: one system call, where resolve() checks every folder of the path
            name = os.readlink(link)
        except OSError:  # not a link (or none)
            name = None
        if name is not None and name == self._link_name and self._ix is not None:
            return self._ix
        real = self.outdir / name if name is not None else Path(link).resolve()
        if self._ix is None or real != self._real:  # the index was rebuilt: reopen
            if not real.exists():
                raise FileNotFoundError(f"{link}: no index (run `paranon index {self.outdir}`)")
            ix = open_backend(real)
            self._stems = self._load_stems(real, ix)
            self._table = load_table(real)
            self._lexicon = Lexicon(load_lexicon(real, ix, self._stems))
            self._stats = load_stats(real)
            self._groups = Groups(real, ix.n_pairs)
            self._ix, self._real = ix, real
        self._link_name = name  # only once that index is open
        return self._ix

    @staticmethod
    def _load_stems(folder: Path, ix) -> dict[str, tuple[Any, dict[str, list[str]]]]:
        """Per side, the stemmer and the index's words grouped by stem (``stems.json``; an index built
        before that file existed has them computed from its vocabulary)."""
        path = folder / STEMS_FILE
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            with ix.reader() as reader:
                data = {side: {"lang": lang, "groups": stem_groups(reader, side, lang)}
                        for side, lang in (("src", "pt"), ("tgt", "en"))}
        return {side: (stemmer(d["lang"]), d["groups"]) for side, d in data.items()}

    def _variants(self, field: str, word: str) -> list[str]:
        """The index words sharing ``word``'s stem on that side (``word`` itself when there are none)."""
        stem, groups = self._stems[field]
        group = groups.get(stem(word))
        return sorted({word, *group}) if group else [word]

    def _expand(self, q):
        """The query with each word (in terms and phrases of the folded fields) widened to its inflected forms."""
        if isinstance(q, wq.Term) and q.fieldname in self._stems and isinstance(q.text, str):
            words = self._variants(q.fieldname, q.text)
            return q if len(words) == 1 else wq.Or([wq.Term(q.fieldname, w) for w in words], boost=q.boost)
        if isinstance(q, wq.Phrase) and q.fieldname in self._stems:
            parts = [self._variants(q.fieldname, w) for w in q.words]
            if all(len(p) == 1 for p in parts):
                return q
            return wq.Sequence([wq.Term(q.fieldname, p[0]) if len(p) == 1 else
                                wq.Or([wq.Term(q.fieldname, w) for w in p]) for p in parts], slop=q.slop)
        return q.apply(self._expand)

    def _parser(self, fields: tuple[str, ...]) -> QueryParser:
        """A query parser for these fields, made once per index (building one costs more than a short search)."""
        key = (self._real, fields)
        parser = self._parsers.get(key)
        if parser is None:
            schema = PARSE_SCHEMA
            parser = MultifieldParser(list(fields), schema) if len(fields) > 1 else QueryParser(fields[0], schema)
            parser.add_plugin(WildcardPlugin())
            # field names (``rec:x``) and ranges are not for users: the fields are the language choice, and
            # a range would expand over the whole vocabulary
            parser.remove_plugin_class(FieldsPlugin)
            parser.remove_plugin_class(RangePlugin)
            self._parsers[key] = parser
        return parser

    def _parse(self, q: str, lang: str, case_sensitive: bool, exact: bool):
        _ = self.ix  # the current index's stems and words, which parsing expands with
        q = q.strip()
        if not q:
            raise QueryError("Type a word or phrase to search for.")
        work.check_words(q, self.budget)
        if q.count('"') % 2:
            raise QueryError('Unbalanced quotes: close the phrase with a second ".')
        read = read_query(q)
        cats, q = read.categories, read.text.strip()
        words = q.replace('"', " ").split()
        if words and all(w.upper() in ("AND", "OR", "NOT") for w in words):
            raise QueryError("The query has operators (AND/OR/NOT) but no word to search for.")
        sides = {"pt": ["src"], "src": ["src"], "en": ["tgt"], "tgt": ["tgt"], "both": ["src", "tgt"]}.get(lang)
        if sides is None:
            raise QueryError(f"Unknown language {lang!r}: use pt, en or both.")
        if not q:
            if not cats:
                raise QueryError("Type a word or phrase to search for.")
            return None, None, sides, cats
        def parse(fields: list[str]):
            try:
                return self._parser(tuple(fields)).parse(q)
            except Exception:  # noqa: BLE001  (whoosh raises many kinds for bad syntax; their text is not for users)
                raise QueryError("Cannot read the query: check its quotes, brackets and operators "
                                 "(AND, OR, NOT).") from None

        parsed, verify = parse(sides), None
        if case_sensitive or exact:
            # the exact-form fields are not indexed: the folded fields find candidates, and the query as typed
            # (case, accents) is checked against each candidate's words
            verify = parse([s + "_exact" for s in sides])
            if is_null(verify):
                raise QueryError("The query has no searchable word.")
            parsed = positive(parsed) or wq.Every()
        else:
            parsed = self._expand(parsed)  # inflected forms too: contrato finds contratos
        if is_null(parsed):
            raise QueryError("The query has no searchable word.")
        return self._wildcards(parsed), verify, sides, cats

    def _wildcards(self, q):
        """The query with each wildcard and prefix replaced by the index words it matches (an OR of terms),
        within the budget's ``max_expansion`` words for the whole query."""
        limit = self.budget.max_expansion
        used = 0

        def expand(node):
            nonlocal used
            if isinstance(node, (wq.Wildcard, wq.Prefix)):
                words = self._lexicon.expand(node.fieldname, node.text, isinstance(node, wq.Prefix),
                                             limit - used, limit)
                used += len(words)
                return wq.Or([wq.Term(node.fieldname, w) for w in words])
            return node.apply(expand)

        return expand(q)

    def search(self, q: str, lang: str = "both", page: int = 1, per_page: int = 20, category: str | None = None,
               translation: str | None = None, case_sensitive: bool = False, exact: bool = False,
               doc: str | None = None, distinct: bool = True) -> dict[str, Any]:
        """A page of a search's hits. With ``distinct`` (the result list) the pages are of distinct pairs (same
        source and target text), each with ``same``: how many hits have its text; without (the concordance)
        of every hit. ``total`` counts every hit (a download has them all), ``distinct`` the distinct pairs."""
        t0 = time.perf_counter()
        found = self._found(q, lang, category, translation, case_sensitive, exact, doc, distinct)
        start = (max(page, 1) - 1) * per_page
        unique = self._distinct(found) if distinct else None
        if unique is not None:
            docs, same = unique.page(start, per_page)
            known = {h.doc: h for h in found.first}  # highlighted already, for the panel
            with self._view() as v:
                page_hits = [known.get(int(d)) or self._highlight(*v.record(d), found.sides, found.finders,
                                                                   found.leaves, {}) for d in docs]
        elif start + per_page <= len(found.first):  # highlighted already, for the panel
            page_hits, same = found.first[start:start + per_page], None
        else:
            with self._view() as v:
                page_hits, same = [self._highlight(*v.record(d), found.sides, found.finders, found.leaves, {})
                                   for d in found.docs[start:start + per_page]], None
        return {"total": len(found.docs), "distinct": len(unique) if unique is not None else None,
                "took_ms": round((time.perf_counter() - t0) * 1000, 1),
                "hits": [{"id": h.rec["id"], "doc": h.rec["doc"], "src": h.rec["src"], "tgt": h.rec["tgt"],
                          "src_hl": h.src_hl, "tgt_hl": h.tgt_hl, "translation": h.translation,
                          "categories": sorted({m["category"] for m in h.rec["src_mentions"] + h.rec["tgt_mentions"]}),
                          **({"same": int(same[k])} if same is not None else {})}
                         for k, h in enumerate(page_hits)],
                **panel(found.counts, len(found.docs) if found.panel_hits is None else found.panel_hits),
                "translations_sampled": found.sampled, "searched": found.sides}

    def _distinct(self, found: Found) -> Distinct:
        """The search's distinct pairs, found when first asked for and remembered with the search."""
        if found.distinct is None:
            found.distinct = distinct(self, found, self._groups, self._ix)
        return found.distinct

    def _found(self, q: str, lang: str, category: str | None, translation: str | None, case_sensitive: bool,
               exact: bool, doc: str | None, rank: bool = False) -> Found:
        """A search's hits and panel, remembered (pages, downloads and the panel's links ask again). ``rank``:
        its distinct pairs will be asked for (a result list)."""
        parsed, verify, sides, cats = self._parse(q, lang, case_sensitive, exact)
        filters = [wq.Term("categories", c.upper()) for c in cats]
        if category:
            filters.append(wq.Term("categories", category.upper()))
        if doc:
            filters.append(wq.Term("doc", doc))
        query = parsed if parsed is not None else wq.Every()
        if filters:
            query = wq.And([query, *filters])
        key = (str(self._real), q, lang, category, translation, case_sensitive, exact, doc)
        with self._cache_lock:
            got = self._cache.get(key)
            if got is not None:
                self._cache.move_to_end(key)
        if got is None:
            with work.deadline(self.budget.time_limit_s, self._gate, self.budget.heavy_cpu_s):
                # a result list's first page is of distinct pairs: count the hits ordered with those first
                by = "rank" if rank and not filters and getattr(self._ix, "leads", False) else "order"
                got = self._collect(query, parsed, verify, sides, translation, bool(filters), by)
            got.query, got.textual = query, not filters
            if self.cache_size:
                with self._cache_lock:
                    self._cache[key] = got
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
        return got

    def _collect(self, query, parsed, verify, sides: list[str], translation: str | None,
                 filtered: bool, by: str = "order") -> Found:
        """Every hit in corpus order (document numbers) and the translations panel's counts.

        The hits come from ``DocSets`` (Whoosh's own matching for query shapes it does not handle); an
        exact-form search checks each candidate's words as typed, a translation filter highlights every hit
        to keep those so translated. The panel comes from the index's translations table when the query is
        words only (nothing else decides which pairs count), else from the first ``TRANSLATION_SAMPLE`` hits."""
        with self._view() as v:
            if verify is None and not translation and hasattr(v, "counts"):
                docs = LazyDocs(self, query, v.counts(query, by))  # every hit counted, a page read when shown
            else:
                docs = v.docs(query)
            terms = self._terms(parsed) if parsed is not None and verify is None else {}
            leaves = exact_leaves(verify) if verify is not None else None
            finders = {side: word_finder(terms[side]) for side in sides if terms.get(side)}
            counts = None if filtered or verify is not None else table_counts(self._local.table, parsed)
            matched: dict[tuple[str, str], bool] = {}
            sample = Tally()
            first: list[Hit] = []  # the hits highlighted anyway, in order: page one needs no second pass
            seen = 0
            if verify is not None or translation or counts is None:
                kept = []
                for d in docs:
                    if verify is None and not translation and seen >= TRANSLATION_SAMPLE:
                        break
                    work.check()
                    rec, pre = v.record(d)
                    if verify is not None and not exact_match(
                            verify, {f"{side}_exact": WORD.findall(rec[side]) for side in sides}):
                        continue
                    seen += 1
                    if translation or counts is None and seen <= TRANSLATION_SAMPLE:
                        hit = self._highlight(rec, pre, sides, finders, leaves, matched)
                        if counts is None and seen <= TRANSLATION_SAMPLE:
                            sample.add(hit.translation)
                        if translation and phrase_key(hit.translation) != phrase_key(translation):
                            continue
                        if len(first) == len(kept) < FIRST_KEPT:
                            hit.doc = int(d)
                            first.append(hit)
                    kept.append(d)
                if verify is not None or translation:
                    docs = np.array(kept, dtype=np.int64)
        panel_hits = seen if translation else None  # the panel is of every hit, not only those so translated
        if counts is not None:
            return Found(docs, counts, sides, finders, leaves, first=first, panel_hits=panel_hits)
        sampled = min(seen if translation or verify is not None else len(docs), TRANSLATION_SAMPLE)
        return Found(docs, sample, sides, finders, leaves, sampled, first, sampled)

    def all_records(self, q: str | None = None, lang: str = "both", category: str | None = None,
                    translation: str | None = None, case_sensitive: bool = False, exact: bool = False,
                    doc: str | None = None):
        """Every record the same search finds (``search``'s filters), in corpus order, for downloads
        (streamed by the caller). Without a query: the corpus, or its pairs of ``category`` and ``doc``."""
        if not q:
            with open(self.outdir / "corpus.jsonl", encoding="utf-8") as fh:
                for line in fh:
                    rec = json.loads(line)
                    if doc and rec["doc"] != doc:
                        continue
                    if not category or any(m["category"] == category.upper()
                                           for m in rec["src_mentions"] + rec["tgt_mentions"]):
                        yield rec
            return
        found = self._found(q, lang, category, translation, case_sensitive, exact, doc)
        with self._view() as v:
            for d in found.docs:
                yield v.record(d)[0]

    def languages(self) -> tuple[str, str]:
        """The corpus' source and target languages (``stats.json``; pt and en for an index without them)."""
        langs = self.stats().get("languages") or ["pt", "en"]
        return langs[0], langs[1]

    def pair(self, pair_id: str) -> dict[str, Any] | None:
        with self._view() as v:
            return v.pair(pair_id)

    def stats(self) -> dict[str, Any]:
        """The corpus page's figures, counted when the index was built (``stats.json``; an index built before
        that file existed has them counted from ``corpus.jsonl`` once)."""
        _ = self.ix  # opens the index (and its stats) if need be
        if self._stats is None:
            builder = StatsBuilder()
            with open(self.outdir / "corpus.jsonl", encoding="utf-8") as fh:
                for line in fh:
                    rec = json.loads(line)
                    builder.add(rec, {side: tokenize(rec[side]) for side in ("src", "tgt")})
            self._stats = builder.result()
        return self._stats

    # -- highlighting ------------------------------------------------------
    def _terms(self, parsed) -> dict[str, set[str]]:
        """Terms to highlight, per field: the query's own terms, inflected forms and the index words its
        wildcards expanded to included (all are terms by now)."""
        terms: dict[str, set[str]] = {}
        for field, text in parsed.all_terms():
            terms.setdefault(field, set()).add(text.decode("utf-8") if isinstance(text, bytes) else text)
        return terms

    def _highlight(self, rec: dict[str, Any], pre: Any, sides: list[str], finders: dict[str, Any],
                   leaves: dict[str, tuple[set[str], list[Any]]] | None,
                   matched: dict[tuple[str, str], bool]) -> Hit:
        """Hit spans on the searched side, their aligned words on the other. Spans are the alignment's
        tokens (``tokenize``), so the aligned words can be looked up. ``finders``: per side, one regex over
        the folded text for the query's index terms (a few hundred hits are highlighted per search, so
        this is done in C, not word by word); ``leaves``: the words and wildcard patterns of an exact-form
        query, matched as typed (``matched`` remembers, for the search, which tokens are hits)."""
        spans: dict[str, list[list[int]]] = {"src": [], "tgt": []}
        toks, links = pre if pre is not None else pair_tokens(rec)
        hit_idx: dict[str, list[int]] = {"src": [], "tgt": []}
        for side in sides:
            text, side_toks = rec[side], toks[side]
            if leaves is None:
                finder = finders.get(side)
                if finder is None:
                    continue
                starts = [a for a, _ in side_toks]
                found: set[int] = set()
                for m in finder.finditer(fold_same_length(text)):
                    k = max(0, bisect_right(starts, m.start()) - 1)
                    while k < len(side_toks) and side_toks[k][0] < m.end():
                        if side_toks[k][1] > m.start():
                            found.add(k)
                        k += 1
                hits = sorted(found)
            else:
                words, patterns = leaves.get(f"{side}_exact", (set(), []))
                if not words and not patterns:
                    continue
                hits = []
                for k, (a, b) in enumerate(side_toks):
                    word = text[a:b]
                    hit = matched.get((side, word))
                    if hit is None:
                        hit = matched[side, word] = any(t in words or any(p.fullmatch(t) for p in patterns)
                                                        for t in self._terms_of("exact", word))
                    if hit:
                        hits.append(k)
            hit_idx[side] = hits
            spans[side] = [[side_toks[k][0], side_toks[k][1]] for k in hits]
        searched = "src" if spans["src"] else "tgt"
        other = "tgt" if searched == "src" else "src"
        translation = ""
        if spans[searched] and not spans[other]:
            spans[other], translation = aligned(rec, toks, searched, hit_idx[searched], link_maps(links),
                                                side_words(rec, self._words))
        return Hit(rec, spans["src"], spans["tgt"], translation)
