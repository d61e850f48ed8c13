"""Search over the index: hits with highlights on both sides and the translations panel.

The highlight on the searched side comes from the query's matched terms; the
highlight on the other side comes from the stored word alignment (tokens as in
``paranon.align.transfer.tokenize``, the same tokenization the alignment uses).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter, OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import regex
from whoosh import index as windex
from whoosh import query as wq
from whoosh.qparser import MultifieldParser, QueryParser
from whoosh.qparser.plugins import WildcardPlugin

from ..align.transfer import tokenize
from ..corpora.model import parse_pharaoh
from .indexer import TOKEN_PATTERN, exact_analyzer, folded_analyzer, stemmed_analyzer

PLACEHOLDER_QUERY = regex.compile(r"<NAME\d*_([A-Z]+)(?:_[A-Z]+)?>")
CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE", "PUBLIC_ID", "PUBLICATION")
MAX_QUERY = 500
TRANSLATION_SAMPLE = 200
WORD = regex.compile(TOKEN_PATTERN)  # the index's tokenizer, so highlight offsets are the indexed words


class QueryError(ValueError):
    """A query the parser cannot read; the message is for the user."""


@dataclass
class Hit:
    rec: dict[str, Any]
    src_hl: list[list[int]]
    tgt_hl: list[list[int]]
    translation: str


class Searcher:
    def __init__(self, outdir: str | Path, cache_size: int = 128) -> None:
        """``cache_size`` searches are remembered (least recently used out; a rebuilt index starts afresh),
        so turning pages, filtering by a translation and downloading a result do not search again."""
        self.outdir = Path(outdir)
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple, tuple[int, list[Hit], Counter]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._ix = None
        self._real = None
        # analyzers are built once, and what they make of each word is remembered: highlighting runs
        # over a few hundred hits per search, and words repeat across a corpus
        self._analyzers: dict[str, Any] = {"folded": folded_analyzer(), "exact": exact_analyzer()}
        self._word_terms: dict[tuple[str, str], tuple[str, ...]] = {}
        self._local = threading.local()

    def _analyzer(self, kind: str) -> Any:
        if kind not in self._analyzers:
            self._analyzers[kind] = stemmed_analyzer(kind.removeprefix("stem-"))
        return self._analyzers[kind]

    def _terms_of(self, kind: str, word: str) -> tuple[str, ...]:
        """The index terms ``kind``'s analyzer makes of one word (all analyzers work word by word)."""
        key = (kind, word)
        got = self._word_terms.get(key)
        if got is None:
            if len(self._word_terms) > 500_000:
                self._word_terms.clear()
            got = self._word_terms[key] = tuple(t.text for t in self._analyzer(kind)(word))
        return got

    @contextmanager
    def _searcher(self):
        """A searcher kept per thread and refreshed when the index changes (opening one costs ~10 ms)."""
        ix = self.ix
        s = getattr(self._local, "searcher", None)
        if s is None or getattr(self._local, "ix", None) is not ix:
            s = self._local.searcher = ix.searcher()
            self._local.ix = ix
        yield s

    @property
    def ix(self):
        link = self.outdir / "index"
        real = link.resolve()
        if self._ix is None or real != self._real:  # the index was rebuilt: reopen
            if not real.exists():
                raise FileNotFoundError(f"{link}: no index (run `paranon index {self.outdir}`)")
            self._ix = windex.open_dir(str(real))
            self._real = real
        return self._ix

    def _parse(self, q: str, lang: str, case_sensitive: bool, exact: bool):
        q = q.strip()
        if not q:
            raise QueryError("Type a word or phrase to search for.")
        if len(q) > MAX_QUERY:
            raise QueryError(f"The query is too long ({len(q)} characters; at most {MAX_QUERY}).")
        if q.count('"') % 2:
            raise QueryError('Unbalanced quotes: close the phrase with a second ".')
        cats = [c for c in PLACEHOLDER_QUERY.findall(q)]
        q = PLACEHOLDER_QUERY.sub(" ", q).strip()
        words = q.replace('"', " ").split()
        if words and all(w.upper() in ("AND", "OR", "NOT") for w in words):
            raise QueryError("The query has operators (AND/OR/NOT) but no word to search for.")
        sides = {"pt": ["src"], "src": ["src"], "en": ["tgt"], "tgt": ["tgt"], "both": ["src", "tgt"]}.get(lang)
        if sides is None:
            raise QueryError(f"Unknown language {lang!r}: use pt, en or both.")
        if not q:
            if not cats:
                raise QueryError("Type a word or phrase to search for.")
            return None, sides, cats
        suffix = "_exact" if case_sensitive or exact else ""
        fields = [s + suffix for s in sides]
        schema = self.ix.schema
        parser = MultifieldParser(fields, schema) if len(fields) > 1 else QueryParser(fields[0], schema)
        parser.add_plugin(WildcardPlugin())
        try:
            parsed = parser.parse(q)
        except Exception as exc:  # noqa: BLE001  (whoosh raises many kinds for bad syntax)
            raise QueryError(f"Cannot read the query: {exc}") from None
        if not case_sensitive and not exact and "*" not in q and "?" not in q:
            # inflected forms too (contrato finds contratos): the stemmed fields alone, since whatever the
            # folded field matches, the stemmed field matches as well (same analyzer, plus a stemmer)
            stem_fields = [s + "_stem" for s in sides]
            sp = MultifieldParser(stem_fields, schema) if len(stem_fields) > 1 else QueryParser(stem_fields[0], schema)
            try:
                parsed = sp.parse(q)
            except Exception:  # noqa: BLE001
                pass
        if parsed is wq.NullQuery or isinstance(parsed, type(wq.NullQuery)):
            raise QueryError("The query has no searchable word.")
        return parsed, sides, cats

    def search(self, q: str, lang: str = "both", page: int = 1, per_page: int = 20, category: str | None = None,
               translation: str | None = None, case_sensitive: bool = False, exact: bool = False,
               doc: str | None = None) -> dict[str, Any]:
        t0 = time.perf_counter()
        parsed, sides, cats = self._parse(q, lang, case_sensitive, exact)
        filters = [wq.Term("categories", c.upper()) for c in cats]
        if category:
            filters.append(wq.Term("categories", category.upper()))
        if doc:
            filters.append(wq.Term("doc", doc))
        query = parsed if parsed is not None else wq.Every()
        if filters:
            query = wq.And([query, *filters])
        start = (max(page, 1) - 1) * per_page
        # without a translation filter only the translation sample and the page need highlighting
        needed = None if translation else max(TRANSLATION_SAMPLE, start + per_page)
        key = (str(self._real), q, lang, category, translation, case_sensitive, exact, doc, needed)
        with self._cache_lock:
            got = self._cache.get(key)
            if got is not None:
                self._cache.move_to_end(key)
        if got is None:
            got = self._collect(query, parsed, sides, translation, case_sensitive or exact, needed)
            if self.cache_size:
                with self._cache_lock:
                    self._cache[key] = got
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
        total, hits, counts = got
        page_hits = hits[start:start + per_page]
        return {"total": total, "took_ms": round((time.perf_counter() - t0) * 1000, 1),
                "hits": [{"id": h.rec["id"], "doc": h.rec["doc"], "src": h.rec["src"], "tgt": h.rec["tgt"],
                          "src_hl": h.src_hl, "tgt_hl": h.tgt_hl, "translation": h.translation,
                          "categories": sorted({m["category"] for m in h.rec["src_mentions"] + h.rec["tgt_mentions"]})}
                         for h in page_hits],
                "translations": [{"text": t, "count": c} for t, c in counts.most_common(30)],
                "searched": sides}

    def _collect(self, query, parsed, sides: list[str], translation: str | None, exact: bool,
                 needed: int | None) -> tuple[int, list[Hit], Counter]:
        """Total, highlighted hits (the first ``needed``) and the translations panel counts of one query."""
        with self._searcher() as s:
            results = s.search(query, limit=needed, sortedby="order")
            terms = self._terms(parsed, s) if parsed is not None else {}
            hits = []
            counts: Counter = Counter()
            matched: dict[str, bool] = {}
            for k, r in enumerate(results):
                if needed is not None and k >= needed:
                    break
                hit = self._highlight(json.loads(r["rec"]), sides, terms, exact, matched)
                if k < TRANSLATION_SAMPLE and hit.translation:
                    counts[hit.translation] += 1
                if translation and hit.translation.lower() != translation.lower():
                    continue
                hits.append(hit)
            total = len(hits) if translation else len(results)
        return total, hits, counts

    def all_records(self, q: str | None = None, lang: str = "both", category: str | None = None):
        """Every matching record, in corpus order, for downloads (streamed by the caller)."""
        if not q:
            with open(self.outdir / "corpus.jsonl", encoding="utf-8") as fh:
                for line in fh:
                    rec = json.loads(line)
                    if not category or any(m["category"] == category for m in rec["src_mentions"] + rec["tgt_mentions"]):
                        yield rec
            return
        res = self.search(q, lang, 1, 10**9, category)
        ids = [h["id"] for h in res["hits"]]
        for i in range(0, len(ids), 500):
            yield from (self.pair(x) for x in ids[i:i + 500])

    def pair(self, pair_id: str) -> dict[str, Any] | None:
        with self._searcher() as s:
            r = s.document(id=pair_id)
            return json.loads(r["rec"]) if r else None

    def stats(self) -> dict[str, Any]:
        pairs = 0
        tokens = {"src": 0, "tgt": 0}
        cats: Counter = Counter()
        docs: Counter = Counter()
        with open(self.outdir / "corpus.jsonl", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                pairs += 1
                tokens["src"] += len(tokenize(rec["src"]))
                tokens["tgt"] += len(tokenize(rec["tgt"]))
                docs[rec["doc"]] += 1
                for m in rec["src_mentions"]:
                    cats[m["category"]] += 1
        return {"pairs": pairs, "tokens": tokens, "mentions": dict(cats.most_common()), "documents": dict(docs)}

    # -- highlighting ------------------------------------------------------
    def _terms(self, parsed, s) -> dict[str, set[str]]:
        """Terms to highlight, per field: the query's own terms (so a hit found only through the stemmed
        field is highlighted too) plus the index terms its wildcards expand to."""
        terms: dict[str, set[str]] = {}
        found = set(parsed.all_terms())
        try:
            found |= set(parsed.existing_terms(s.reader(), expand=True))
        except Exception:  # noqa: BLE001  (a query type without term expansion: its own terms suffice)
            pass
        for field, text in found:
            terms.setdefault(field, set()).add(text.decode("utf-8") if isinstance(text, bytes) else text)
        return terms

    def _highlight(self, rec: dict[str, Any], sides: list[str], terms: dict[str, set[str]], exact: bool,
                   matched: dict[str, bool]) -> Hit:
        """Hit spans on the searched side, their aligned words on the other; ``matched`` remembers, for
        this search, whether a word form is a hit (the same forms recur across hits)."""
        spans: dict[str, list[list[int]]] = {"src": [], "tgt": []}
        for side in sides:
            lang = rec.get(f"{side}_lang", "pt")
            text = rec[side]
            kinds = [(kind, terms[field]) for field, kind in ((side, "folded"), (f"{side}_stem", f"stem-{lang}"),
                                                             (f"{side}_exact", "exact")) if terms.get(field)]
            if not kinds:
                continue
            for w in WORD.finditer(text):
                word = w.group()
                hit = matched.get(word)
                if hit is None:
                    hit = matched[word] = any(t in wanted for kind, wanted in kinds for t in self._terms_of(kind, word))
                if hit:
                    spans[side].append([w.start(), w.end()])
        searched = "src" if spans["src"] else "tgt"
        other = "tgt" if searched == "src" else "src"
        translation = ""
        if spans[searched] and not spans[other]:
            links = parse_pharaoh(rec.get("alignment", ""))
            toks = tokenize(rec[searched])
            other_toks = tokenize(rec[other])
            hit_idx = {k for k, (a, b) in enumerate(toks) for s, e in spans[searched] if a < e and s < b}
            if searched == "src":
                aligned = sorted({j for i, j in links if i in hit_idx and j < len(other_toks)})
            else:
                aligned = sorted({i for i, j in links if j in hit_idx and i < len(other_toks)})
            if aligned:
                lo, hi = aligned[0], aligned[-1]
                if hi - lo <= 2 * max(1, len(hit_idx)) + 2:
                    spans[other] = [[other_toks[k][0], other_toks[k][1]] for k in range(lo, hi + 1)]
                    translation = rec[other][other_toks[lo][0]:other_toks[hi][1]]
                else:
                    spans[other] = [[other_toks[k][0], other_toks[k][1]] for k in aligned]
                    translation = " ".join(rec[other][other_toks[k][0]:other_toks[k][1]] for k in aligned)
        return Hit(rec, sorted(spans["src"]), sorted(spans["tgt"]), translation)
