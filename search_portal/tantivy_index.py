"""The tantivy backend (the default; a core dependency): the same portal over a tantivy index.

Build: ``corpus.jsonl`` is cut into one run of whole lines per core (``indexer._parts``), as for Whoosh;
each run is read, folded, counted (translations table, corpus figures, vocabulary) and indexed by its own
process into an index of its own, ``tantivy/part-K``, the parts in corpus order. The folded words are
joined by spaces and cut again by tantivy's whitespace tokenizer, so tantivy holds exactly Whoosh's terms
and positions (a word's folding is ``indexer.FoldedText``'s). Stored per pair: the record and the packed
tokens (highlighting), the corpus number as a fast field (``order``).

Search: the parsed query (Whoosh's query objects, after stems and wildcards were expanded) becomes a tantivy
query (``to_tantivy``); each part counts its hits and returns them ordered by ``order``, which are the
document numbers this backend hands the portal (corpus numbers: already in corpus order).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import tantivy
from tqdm import tqdm
from whoosh import query as wq
from whoosh.support.charset import accent_map

from ..collector import quiet_gc
from .budget import QueryError, check
from .groups import GROUPS_FILE, LEAD_FIELD, RANK_FIELD
from .index_prep import Fields, line_digest, load_fields, prep_path, save_fields
from .indexer import (
    LEXICON_DIR,
    STATS_FILE,
    STEMS_FILE,
    TOKEN_PATTERN,
    StatsBuilder,
    _parts,
    _pool,
    folded_analyzer,
    parse_record,
    part_lines,
    stem_groups_of,
)
from .translations import TableBuilder, pack_tokens, unpack_tokens

PARTS_DIR = "tantivy"
PARTS_FILE = "parts.json"  # [[folder, first corpus number, end], ...] in corpus order
TOKENIZER = "folded"  # whitespace: the words arrive folded and joined by spaces
HEAD = 100  # hits per part read with the count: the first pages and the panel's sample (search.FIRST_KEPT)
MAX_PHRASES = 256  # a phrase of inflected words becomes one phrase per combination of forms
WORD = __import__("regex").compile(TOKEN_PATTERN)


def make_schema() -> Any:
    sb = tantivy.SchemaBuilder()
    for name in ("id", "doc", "categories"):
        sb.add_text_field(name, tokenizer_name="raw", index_option="basic")
    for name in ("src", "tgt"):
        sb.add_text_field(name, tokenizer_name=TOKENIZER, index_option="position")
    sb.add_integer_field("order", stored=False, indexed=True, fast=True)
    for name in (LEAD_FIELD, RANK_FIELD):  # duplicate groups (groups.py)
        sb.add_integer_field(name, stored=False, indexed=False, fast=True)
    sb.add_bytes_field("rec", stored=True)
    sb.add_bytes_field("tokens", stored=True)
    return sb.build()


def _open(folder: Path, schema: Any, create: bool = False) -> Any:
    """A part's index (``schema`` None: opened with the schema it was built with)."""
    index = tantivy.Index.open(str(folder)) if schema is None else tantivy.Index(schema, path=str(folder),
                                                                                   reuse=not create)
    index.register_tokenizer(TOKENIZER, tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build())
    return index


# -- build -----------------------------------------------------------------------
Vocabulary = dict[str, Counter]  # per field, its folded words and how often the corpus has each


def folded_words(text: str, folded: dict[str, str]) -> list[str]:
    """The text's index terms in order (a word's folding is ``indexer.FoldedText``'s), with ``folded`` the
    words folded so far."""
    words = []
    for word in WORD.findall(text):
        term = folded.get(word)
        if term is None:
            if len(folded) > 500_000:
                folded.clear()
            term = folded[word] = word.lower().translate(accent_map)
        words.append(term)
    return words


def record_fields(rec: dict[str, Any], toks: Any, links: Any, folded: dict[str, str], vocab: Vocabulary) -> Fields:
    """What a pair's document holds that depends on its line alone (``index_prep`` keeps it): id, document,
    categories, each side's folded words (counted into ``vocab``), the packed tokens; ``folded``: words folded
    so far."""
    terms = []
    for side in ("src", "tgt"):
        words = folded_words(rec[side], folded)
        vocab[side].update(words)
        terms.append(" ".join(words))
    cats = tuple(sorted({m["category"] for m in rec["src_mentions"] + rec["tgt_mentions"]}))
    return rec["id"], rec["doc"], cats, terms[0], terms[1], pack_tokens(toks, links)


def document(fields: Fields, line: bytes, order: int, leads: np.ndarray) -> Any:
    """One pair's tantivy document: its ``record_fields``, its line, its place in the corpus."""
    pair_id, doc_id, cats, src, tgt, tokens = fields
    doc = tantivy.Document()
    doc.add_text("id", pair_id)
    doc.add_text("doc", doc_id)
    lead = leads[order] == order  # the first pair of its text (groups.py)
    doc.add_integer(LEAD_FIELD, int(lead))
    doc.add_integer(RANK_FIELD, order if lead else len(leads) + order)
    for cat in cats:
        doc.add_text("categories", cat)
    doc.add_text("src", src)
    doc.add_text("tgt", tgt)
    doc.add_integer("order", order)
    doc.add_bytes("rec", line)
    doc.add_bytes("tokens", tokens)
    return doc


def _part(job: tuple) -> tuple[dict[str, Counter], StatsBuilder, Vocabulary, int, bytes]:
    """Index one run of lines into ``tantivy/part-K``; returns its translation counts, figures, vocabulary,
    the corpus number after its last pair and its lines' digests (``index_prep.line_digest``, joined in order)
    (a seventh item false in the job: no counts, the pairs only; an eighth: the part's ``index_prep`` file,
    whose fields are taken for the lines it knows (without counts only) and which is left with the part's own)."""
    quiet_gc()
    target, corpus, k, start, end, first, *rest = job
    count = rest[0] if rest else True
    prep = rest[1] if len(rest) > 1 else None
    folder = Path(target) / PARTS_DIR / f"part-{k:03d}"
    folder.mkdir(parents=True)
    writer = _open(folder, make_schema(), create=True).writer(heap_size=128_000_000, num_threads=1)
    analyzer = folded_analyzer()
    table = TableBuilder(lambda word: [t.text for t in analyzer(word)])
    stats = StatsBuilder()
    vocab: Vocabulary = {"src": Counter(), "tgt": Counter()}
    folded: dict[str, str] = {}
    leads = np.fromfile(Path(target) / GROUPS_FILE, dtype=np.int32)  # each pair's group (groups.py)
    known = load_fields(prep) if not count else {}
    kept: dict[bytes, Fields] = {}
    digests: list[bytes] = []  # one a line, in order (two equal lines: one key of ``kept``, two digests)
    order = first  # the corpus number after the part's last pair
    for order, line in part_lines(corpus, start, end, first):
        key = line_digest(line)
        fields = known.get(key)
        if fields is None:
            rec, toks, links = parse_record(corpus, order, line.decode("utf-8"))
            if count:
                table.add(rec, toks, links)
                stats.add(rec, toks)
            fields = record_fields(rec, toks, links, folded, vocab)
        kept[key] = fields
        digests.append(key)
        writer.add_document(document(fields, line, order, leads))
        order += 1
    writer.commit()
    writer.wait_merging_threads()
    save_fields(prep, kept)
    return table.counts, stats, vocab, order, b"".join(digests)


@dataclass
class SideCounts:
    """What the index's side files are made from: the translations table's counts, the corpus figures and
    the vocabulary (``paranon apply`` updates them pair by pair: ``tantivy_update``)."""

    table: dict[str, Counter]  # TableBuilder.counts
    stats: StatsBuilder
    vocab: Vocabulary
    stems: dict[str, dict[str, str]] = field(default_factory=lambda: {"src": {}, "tgt": {}})  # word -> stem

    def write(self, target: Path, langs: dict[str, str], previous: dict[str, dict[str, list]] | None = None,
              terms: dict[str, set[str]] | None = None) -> None:
        """``words/``, ``stems.json``, ``translations.json`` and ``stats.json`` in ``target`` (``previous``,
        ``terms``: ``TableBuilder.write``'s)."""
        (target / LEXICON_DIR).mkdir(exist_ok=True)
        stems = {}
        for side, lang in langs.items():
            words = sorted(w for w, n in self.vocab[side].items() if n > 0)
            (target / LEXICON_DIR / f"{side}.txt").write_text("\n".join(words), encoding="utf-8")
            stems[side] = {"lang": lang, "groups": stem_groups_of(words, lang, self.stems[side])}
        (target / STEMS_FILE).write_text(json.dumps(stems, ensure_ascii=False), encoding="utf-8")
        table = TableBuilder(lambda word: ())
        table.counts = self.table
        table.write(target, previous, terms)
        (target / STATS_FILE).write_text(json.dumps(self.stats.result(), ensure_ascii=False), encoding="utf-8")


def build(target: Path, corpus: Path, first: dict[str, Any], quiet: bool, prep: Path | None = None
          ) -> tuple[dict[str, float], SideCounts, bytes]:
    """The tantivy index and the side files, in ``target``; returns the wall seconds of its phases, the
    counts the side files were made from and the digests of the corpus's lines (``index_update.line_digests``,
    made by the parts as they read the lines: the corpus is not read and hashed again for the index state).
    ``prep``: where each part leaves its ``index_prep`` file."""
    t0 = time.perf_counter()
    langs = {"src": first.get("src_lang", "pt"), "tgt": first.get("tgt_lang", "en")}
    procs = max(1, min(4, os.cpu_count() or 1))
    parts = _parts(corpus, procs)
    if prep is not None:  # the last build's files: this build cuts its own parts
        shutil.rmtree(prep, ignore_errors=True)
    jobs = [(str(target), str(corpus), k, *part, True, prep_path(prep, k)) for k, part in enumerate(parts)]
    with _pool(min(procs, len(parts))) as pool, tqdm(desc="index", unit=" parts", disable=quiet,
                                                     total=len(jobs)) as bar:
        results = []
        for got in (pool.imap(_part, jobs) if pool is not None else map(_part, jobs)):
            results.append(got)
            bar.update(1)
    t1 = time.perf_counter()
    side = SideCounts({"src": Counter(), "tgt": Counter()}, StatsBuilder(), {"src": Counter(), "tgt": Counter()})
    spans = []
    for job, (counts, part_stats, part_vocab, end, _digests) in zip(jobs, results, strict=True):
        side.stats.merge(part_stats)
        for s, got in counts.items():
            side.table[s].update(got)
        for s in side.vocab:
            side.vocab[s].update(part_vocab[s])
        spans.append([f"part-{job[2]:03d}", job[5], end])
    (target / PARTS_DIR / PARTS_FILE).write_text(json.dumps(spans), encoding="utf-8")
    t2 = time.perf_counter()
    side.write(target, langs)
    # the parts in parallel; the parts' counts and vocabularies merged; stems, table and figures written
    return {"parts": round(t1 - t0, 1), "merge": round(t2 - t1, 1), "side_files": round(time.perf_counter() - t2, 1)}, \
        side, b"".join(r[4] for r in results)


# -- search ----------------------------------------------------------------------
class TantivyIndex:
    name = "tantivy"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.schema = make_schema()
        spans = json.loads((folder / PARTS_DIR / PARTS_FILE).read_text(encoding="utf-8"))
        self.firsts = [a for _, a, _ in spans]
        self.n_pairs = spans[-1][2] if spans else 0
        # an index built before the duplicate groups has neither their file nor their fields
        self.leads = (folder / GROUPS_FILE).exists()
        self.parts = [_open(folder / PARTS_DIR / name, self.schema if self.leads else None) for name, _, _ in spans]

    @staticmethod
    def numbers(docs: np.ndarray) -> np.ndarray:
        """Hits' corpus numbers: this backend's document numbers are corpus numbers."""
        return docs

    def view(self) -> TantivyView:
        return TantivyView(self)


class TantivyView:
    """A thread's searchers over the parts.

    ``counts`` counts each part's hits and, in the same pass, reads its first ``HEAD`` hits in corpus order
    (tantivy orders by the fast field without scoring): the first page and the panel's sample are then read
    from them, with no second search. Each page remembers its hits' addresses, so ``record`` reads a shown
    hit's stored fields directly (no search for its corpus number)."""

    def __init__(self, index: TantivyIndex) -> None:
        self.index = index
        self.schema = index.schema
        self.searchers = [part.searcher() for part in index.parts]
        self._head: tuple[Any, str, list[list[tuple[int, Any]]]] | None = None  # (query, order, per part its first hits)
        self._where: dict[int, tuple[int, Any]] = {}  # the last page's corpus numbers -> (part, address)
        self._converted: tuple[Any, Any] | None = None  # the last query and its tantivy query

    def _query(self, query: Any) -> Any:
        """``to_tantivy(query)``, remembered for the last query (a search counts, then pages or sums it)."""
        if self._converted is None or self._converted[0] is not query:
            self._converted = (query, to_tantivy(query, self.schema))
        return self._converted[1]

    def docs(self, query: Any) -> np.ndarray:
        q = to_tantivy(query, self.schema)
        out = []
        for s in self.searchers:
            check()  # the request's deadline and the server's gate (budget.py), between parts
            n = s.search(q, limit=1, count=True).count
            if n:
                hits = s.search(q, limit=n, count=False, order_by_field="order", order=tantivy.Order.Asc).hits
                out.append(np.fromiter((k for k, _ in hits), dtype=np.int64, count=len(hits)))
        return np.concatenate(out) if out else np.empty(0, dtype=np.int64)

    def counts(self, query: Any, by: str = "order") -> list[int]:
        """The number of hits in each part (their first ``HEAD`` ordered ``by`` a fast field, ``order`` or
        ``rank`` (distinct pairs first, groups.py), kept for ``page``)."""
        q = self._query(query)
        out, heads = [], []
        for s in self.searchers:
            check()
            got = s.search(q, limit=HEAD, count=True, order_by_field=by, order=tantivy.Order.Asc)
            out.append(got.count)
            heads.append(got.hits)
        self._head = (query, by, heads)
        return out

    def leads(self, query: Any) -> list[int]:
        """The number of distinct pairs among the hits in each part (the sum of ``lead``, groups.py)."""
        q = self._query(query)
        out = []
        for s in self.searchers:
            check()
            out.append(int(s.aggregate(q, {"d": {"sum": {"field": LEAD_FIELD}}})["d"]["value"] or 0))
        return out

    def page(self, query: Any, counts: list[int], start: int, n: int, by: str = "order") -> np.ndarray:
        """Hits ``start`` to ``start + n`` ordered ``by`` (``counts``: per part, from ``counts``, or from
        ``leads`` for the distinct pairs ordered by ``rank``, whose rank is their corpus number)."""
        head = self._head
        heads = head[2] if head is not None and head[0] is query and head[1] == by else None
        q = None
        where: dict[int, tuple[int, Any]] = {}
        for k, (s, count) in enumerate(zip(self.searchers, counts, strict=True)):
            if start >= count:
                start -= count
                continue
            take = min(n, count - start)
            if heads is not None and start + take <= len(heads[k]):
                hits = heads[k][start:start + take]
            else:
                q = q or self._query(query)
                hits = s.search(q, limit=take, count=False, offset=start, order_by_field=by,
                                order=tantivy.Order.Asc).hits
            where.update((order, (k, address)) for order, address in hits)
            n -= take
            start = 0
            if n <= 0:
                break
        self._where = where
        return np.fromiter(where, dtype=np.int64, count=len(where))

    def _stored(self, s: Any, address: Any) -> tuple[dict[str, Any], Any]:
        d = s.doc(address)
        packed = d.get_first("tokens")
        return json.loads(d.get_first("rec")), unpack_tokens(packed) if packed else None

    def _first(self, s: Any, q: Any) -> tuple[dict[str, Any], Any] | None:
        hits = s.search(q, limit=1, count=False).hits
        return self._stored(s, hits[0][1]) if hits else None

    def record(self, n: int) -> tuple[dict[str, Any], Any]:
        where = self._where.get(int(n))
        if where is not None:  # a hit of the last page read
            return self._stored(self.searchers[where[0]], where[1])
        k = bisect_right(self.index.firsts, int(n)) - 1
        got = self._first(self.searchers[k], tantivy.Query.term_query(self.schema, "order", int(n)))
        if got is None:
            raise KeyError(n)
        return got

    def pair(self, pair_id: str) -> dict[str, Any] | None:
        q = tantivy.Query.term_query(self.schema, "id", pair_id)
        for s in self.searchers:
            got = self._first(s, q)
            if got is not None:
                return got[0]
        return None


def _text(t: str | bytes) -> str:
    return t.decode("utf-8") if isinstance(t, bytes) else t


def to_tantivy(q: Any, schema: Any) -> Any:
    """A parsed query (Whoosh's query objects) as a tantivy query with the same matches."""
    Q, Occur = tantivy.Query, tantivy.Occur
    if q is None or q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
        return Q.empty_query()
    if isinstance(q, wq.Every):
        return Q.all_query()
    t = type(q)
    if t is wq.Term:
        return Q.term_query(schema, q.fieldname, _text(q.text))
    if t is wq.Or and not getattr(q, "minmatch", 0):
        subs = q.subqueries
        if not subs:
            return Q.empty_query()
        if all(type(c) is wq.Term for c in subs) and len({c.fieldname for c in subs}) == 1:
            return Q.term_set_query(schema, subs[0].fieldname, [_text(c.text) for c in subs])
        return Q.boolean_query([(Occur.Should, to_tantivy(c, schema)) for c in subs])
    if t is wq.And:
        clauses = [(Occur.MustNot, to_tantivy(c.query, schema)) if isinstance(c, wq.Not)
                   else (Occur.Must, to_tantivy(c, schema)) for c in q.subqueries]
        if not any(o == Occur.Must for o, _ in clauses):
            clauses.append((Occur.Must, Q.all_query()))
        return Q.boolean_query(clauses)
    if isinstance(q, wq.Not):
        return Q.boolean_query([(Occur.Must, Q.all_query()), (Occur.MustNot, to_tantivy(q.query, schema))])
    if isinstance(q, wq.AndNot):
        return Q.boolean_query([(Occur.Must, to_tantivy(q.a, schema)), (Occur.MustNot, to_tantivy(q.b, schema))])
    if isinstance(q, wq.AndMaybe):
        return to_tantivy(q.a, schema)
    if isinstance(q, (wq.Phrase, wq.Sequence)):
        return _phrases(q, schema)
    if isinstance(q, wq.FuzzyTerm):
        return Q.fuzzy_term_query(schema, q.fieldname, _text(q.text), distance=q.maxdist,
                                  transposition_cost_one=True)
    raise QueryError("This kind of query cannot be searched here: use words, phrases, wildcards and AND/OR/NOT.")


def _phrases(q: Any, schema: Any) -> Any:
    """A phrase; a sequence of inflected forms becomes one phrase per combination. Whoosh's slop is the
    largest distance between consecutive words (1: adjacent), tantivy's the words allowed between."""
    Q = tantivy.Query
    if isinstance(q, wq.Phrase):
        field, words = q.fieldname, [[_text(w)] for w in q.words]
    else:
        field, words = None, []
        for c in q.subqueries:
            alts = [c] if type(c) is wq.Term else list(c.subqueries) if type(c) is wq.Or else None
            if alts is None or any(type(a) is not wq.Term for a in alts):
                raise QueryError("This phrase cannot be searched here: use words in it.")
            field = field or alts[0].fieldname
            words.append([_text(a.text) for a in alts])
    if len(words) == 1:
        return Q.term_set_query(schema, field, words[0])
    combos = 1
    for alts in words:
        combos *= len(alts)
    if combos > MAX_PHRASES:
        raise QueryError("The phrase's words have too many inflected forms together: shorten the phrase, or "
                         "search the exact forms (exact form).")
    slop = max(0, q.slop - 1)
    phrases = [Q.phrase_query(schema, field, list(c), slop=slop) for c in product(*words)]
    return phrases[0] if len(phrases) == 1 else Q.boolean_query([(tantivy.Occur.Should, p) for p in phrases])
