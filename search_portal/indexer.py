"""The Whoosh index, built from ``corpus.jsonl`` only (never from ``keys.sqlite``).

Fields per pair: source and target text folded (lowercase, accents removed), the
placeholder categories present,
document id, metadata and the stored record (anonymized text and alignment). The
exact-form fields are in the schema, to parse case-sensitive queries with, but not
indexed: such a query finds candidates through the folded fields and is checked
against each candidate's words (indexing every word twice more cost a third of the
build time for a rarely used option).
Inflected forms (``contrato`` finds ``contratos``) come from ``stems.json``, written
beside the index: for each side, the folded index terms grouped by their stem, so
a query word is expanded to the words of its stem that the corpus has. A stemmed
copy of each text would index every word a third time; the groups cost one pass
over the vocabulary. The index is built in a fresh folder and the
``index`` symlink is swapped to it in one rename, so a running server never sees
a half-built index.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from tqdm import tqdm
from whoosh import index as windex
from whoosh.analysis import RegexTokenizer, StemFilter
from whoosh.analysis.acore import Token
from whoosh.codec.whoosh3 import W3Codec
from whoosh.columns import NumericColumn
from whoosh.fields import COLUMN, ID, KEYWORD, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.formats import Positions
from whoosh.support.charset import accent_map
from whoosh.writing import SegmentWriter

from ..errors import InputError
from ..parallel import Workers
from .docsets import HOT_DIR, HOT_FIELDS, write_hot, write_hot_field
from .groups import write_groups
from .publish import corpus_head, new_folder, swap_in
from .translations import TableBuilder, pack_tokens, pair_tokens

TOKEN_PATTERN = r"<NAME\d+_[A-Z_]+>|\w+(?:[-'’]\w+)*"


class FoldingTokenizer(RegexTokenizer):
    """``RegexTokenizer | LowercaseFilter | CharsetFilter(accent_map)`` in one generator: the same terms and
    positions, without a generator and a method call per word for each filter (a fifth of the index build
    went into passing tokens down that chain)."""

    def __call__(self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
                 removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True,
                 mode: str = "", **kwargs: Any) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        t.boost = 1.0
        t.stopped = False
        if not tokenize:
            t.original = value
            t.text = value.lower().translate(accent_map)
            if positions:
                t.pos = start_pos
            if chars:
                t.startchar, t.endchar = start_char, start_char + len(value)
            yield t
            return
        for pos, match in enumerate(self.expression.finditer(value)):
            word = match.group(0)
            if keeporiginal:
                t.original = word
            t.text = word.lower().translate(accent_map)
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar, t.endchar = start_char + match.start(), start_char + match.end()
            yield t


def folded_analyzer() -> FoldingTokenizer:
    return FoldingTokenizer(TOKEN_PATTERN)


_FOLDED: dict[str, bytes] = {}  # word -> its index term (UTF-8), shared by the fields of one process
_ONE_POSITION: dict[int, bytes] = {}  # position -> Whoosh's encoding of a word seen once, at that position


class FoldedText(TEXT):
    """``TEXT(analyzer=folded_analyzer(), phrase=True)`` with the postings of a text made in one pass.

    Whoosh makes them token by token: a generator, a ``Token`` and a dictionary update per word, then a
    pickle per word for its positions. Here the words are found by the analyzer's own expression, each
    distinct word is folded once per process, and the encoding of a single position (most words occur once
    in a pair) is looked up. The postings are the same, byte for byte (a test compares them); queries still
    go through the analyzer."""

    def __init__(self) -> None:
        super().__init__(analyzer=folded_analyzer(), phrase=True)

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if not isinstance(value, str) or type(self.format) is not Positions or kwargs:
            yield from super().index(value, **kwargs)
            return
        folded, one, encode = _FOLDED, _ONE_POSITION, self.format.encode
        if len(folded) > 500_000:
            folded.clear()
        positions: dict[bytes, list[int]] = {}
        for pos, word in enumerate(self.analyzer.expression.findall(value)):
            term = folded.get(word)
            if term is None:
                term = folded[word] = word.lower().translate(accent_map).encode("utf-8")
            got = positions.get(term)
            if got is None:
                positions[term] = [pos]
            else:
                got.append(pos)
        boost = self.format.field_boost
        for term, poslist in positions.items():
            n = len(poslist)
            if n == 1:
                value = one.get(poslist[0])
                if value is None:
                    value = one[poslist[0]] = encode(poslist)
            else:
                value = encode(poslist)
            yield term, n, n * boost, value


class PortalCodec(W3Codec):
    """Whoosh's codec without per-posting length statistics. Those feed the block-skipping of top-N
    relevance ranking; the portal lists hits in corpus order, never by score, and looking each posting's
    document length up again was a third of the index commit."""

    length_stats = False

    def __init__(self, blocklimit: int = 128, compression: int = 1, inlinelimit: int = 1) -> None:
        # posting blocks deflated at level 1, not Whoosh's 3: as small here (51.0 MB against 50.9 MB for
        # 40,000 pairs) and faster to write
        super().__init__(blocklimit=blocklimit, compression=compression, inlinelimit=inlinelimit)


STATS_FILE = "stats.json"  # the corpus page's figures, counted while indexing
EXAMPLE_QUERIES = 8  # example queries on the home page
EXAMPLE_MIN_CHARS = 5
LEXICON_DIR = "words"  # per field, the index words one a line (wildcards are expanded over them)

STEMMER_LANGUAGES = {"pt": "portuguese", "en": "english", "es": "spanish", "fr": "french", "de": "german",
                     "it": "italian", "nl": "dutch"}
STEMS_FILE = "stems.json"


def stemmer(lang: str) -> Callable[[str], str]:
    """Snowball stemmer for a language code (English for languages without one)."""
    return StemFilter(lang=STEMMER_LANGUAGES.get(lang.split("-")[0].lower(), "english"))._stem


def stem_groups(reader, field: str, lang: str) -> dict[str, list[str]]:
    """The field's index terms grouped by stem; a stem whose only word is the stem itself is left out (a query
    word with that stem expands to the word alone)."""
    return stem_groups_of((t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field)), lang)


def stem_groups_of(words: Iterator[str] | list[str], lang: str, known: dict[str, str] | None = None
                   ) -> dict[str, list[str]]:
    """``stem_groups`` over a sorted list of words (any backend's vocabulary); ``known``: words stemmed
    before, each with its stem (filled with the others)."""
    stem = stemmer(lang)
    known = {} if known is None else known
    groups: dict[str, list[str]] = {}
    for word in words:
        if not word.startswith("<"):
            s = known.get(word)
            if s is None:
                s = known[word] = stem(word)
            groups.setdefault(s, []).append(word)
    return {k: v for k, v in groups.items() if v != [k]}


def exact_analyzer():
    return RegexTokenizer(TOKEN_PATTERN)


def make_schema() -> Schema:
    return Schema(
        id=ID(stored=True, unique=True), doc=ID(stored=True), categories=KEYWORD(stored=True, commas=True),
        src=FoldedText(), tgt=FoldedText(),
        src_exact=TEXT(analyzer=exact_analyzer(), phrase=True), tgt_exact=TEXT(analyzer=exact_analyzer(), phrase=True),
        meta=TEXT(analyzer=folded_analyzer()), order=COLUMN(NumericColumn("I")), rec=STORED,
        tokens=STORED,  # pack_tokens: the pair's tokens and links, for highlighting
    )


def open_index(folder: str | Path) -> Any:
    """The Whoosh index in ``folder``, its segment files read in place.

    Whoosh maps a segment file and then copies each part it opens into a ``BytesIO``: every reader holds the
    whole postings and term index in memory (214 MB for 200,000 pairs, over 500 MB for a million), once per
    searcher. The portal keeps a searcher per thread, and the index build opens three. Without the map,
    Whoosh reads the same bytes through its file handle, from the page cache, and copies nothing."""
    return FileStorage(str(folder), supports_mmap=False).open_index()


def _hot_field(job: tuple[str, str]) -> None:
    folder, field = job
    with open_index(folder).searcher() as searcher:
        write_hot_field(searcher, Path(folder), field)


@contextmanager
def _pool(procs: int) -> Iterator[Any]:
    """A pool of forked processes, or None where there is one core or no fork."""
    if procs < 2 or not hasattr(os, "fork"):
        yield None
        return
    from ..runlock import die_with_parent

    pool = get_context("fork").Pool(procs, initializer=die_with_parent)  # no orphan if the build is killed
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()


def _parts(corpus: Path, n: int) -> list[tuple[int, int, int]]:
    """``corpus`` cut into ``n`` runs of whole lines of about equal size: (start byte, end byte, number of
    the first line), in file order."""
    size = corpus.stat().st_size
    cuts = [0]
    with open(corpus, "rb") as fh:
        for k in range(1, n):
            fh.seek(max(cuts[-1], size * k // n))
            if fh.tell() > 0:
                fh.seek(fh.tell() - 1)
                fh.readline()  # to the end of the line the cut fell in
            cuts.append(max(cuts[-1], fh.tell()))
        cuts.append(size)
        parts, line, pos = [], 0, 0
        fh.seek(0)
        for start, end in zip(cuts, cuts[1:], strict=False):
            while pos < start:  # the lines before this part: its first line's number
                block = fh.read(min(1 << 24, start - pos))
                line += block.count(b"\n")
                pos += len(block)
            if end > start:
                parts.append((start, end, line))
    return parts



class StatsBuilder:
    """The corpus page's figures (pairs, tokens per side, source mentions per category, pairs per document,
    the languages, example queries), counted while the pairs are indexed: the page used to read all of
    ``corpus.jsonl`` on every view."""

    def __init__(self) -> None:
        self.pairs = 0
        self.tokens = {"src": 0, "tgt": 0}
        self.mentions: Counter = Counter()
        self.documents: Counter = Counter()  # in corpus order of first appearance
        self.languages: list[str] = []
        self.words: Counter = Counter()  # source tokens as written (the example queries come from them)

    def add(self, rec: dict[str, Any], toks: dict[str, list]) -> None:
        self.pairs += 1
        self.tokens["src"] += len(toks["src"])
        self.tokens["tgt"] += len(toks["tgt"])
        self.documents[rec["doc"]] += 1
        for m in rec["src_mentions"]:
            self.mentions[m["category"]] += 1
        if not self.languages:
            self.languages = [rec.get("src_lang", "pt"), rec.get("tgt_lang", "en")]
        text = rec["src"]
        self.words.update([text[a:b] for a, b in toks["src"]])  # counted in C; filtered once, at the end

    def merge(self, other: StatsBuilder) -> None:
        """Add a later part's counts (documents keep the order they first appear in)."""
        self.pairs += other.pairs
        for side in self.tokens:
            self.tokens[side] += other.tokens[side]
        self.mentions.update(other.mentions)
        self.documents.update(other.documents)
        self.languages = self.languages or other.languages
        self.words.update(other.words)

    def examples(self, n: int = EXAMPLE_QUERIES) -> list[str]:
        """The corpus' most frequent source content words (letters only, ``EXAMPLE_MIN_CHARS`` or more, no
        function word), lowercase: queries a new user can click. Placeholders and numbers never qualify,
        so no entity's text can be one."""
        from ..align.content_words import function_words

        lang = self.languages[0] if self.languages else "pt"
        skip = function_words(lang)
        folded: Counter = Counter()
        for word, count in self.words.items():
            if len(word) >= EXAMPLE_MIN_CHARS and word.isalpha():
                low = word.lower()
                if low not in skip:
                    folded[low] += count
        # ties by the word: the same examples whatever order the counts were added in (tantivy_update)
        return [w for w, _ in sorted(folded.items(), key=lambda kv: (-kv[1], kv[0]))[:n]]

    def result(self) -> dict[str, Any]:
        mentions = dict(sorted(self.mentions.items(), key=lambda kv: (-kv[1], kv[0])))
        return {"pairs": self.pairs, "tokens": dict(self.tokens), "mentions": mentions,
                "documents": dict(self.documents), "languages": self.languages or ["pt", "en"],
                "examples": self.examples()}


def load_stats(folder: Path) -> dict[str, Any] | None:
    """The index's ``stats.json``, or None for an index built before it existed."""
    path = folder / STATS_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def write_lexicon(reader: Any, folder: Path, fields: tuple[str, ...] = ("src", "tgt")) -> None:
    """``folder/words/FIELD.txt``: the field's index words, one a line, in index order."""
    (folder / LEXICON_DIR).mkdir(exist_ok=True)
    for field in fields:
        words = (t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field))
        (folder / LEXICON_DIR / f"{field}.txt").write_text("\n".join(words), encoding="utf-8")


def load_lexicon(folder: Path, ix: Any, fields: Any = ("src", "tgt")) -> dict[str, list[str]]:
    """Per field, its index words (from ``words/``; an index built before that folder existed has them read
    from its term index)."""
    out: dict[str, list[str]] = {}
    for field in fields:
        path = folder / LEXICON_DIR / f"{field}.txt"
        if path.exists():
            text = path.read_text(encoding="utf-8")
            out[field] = text.split("\n") if text else []
        else:
            with ix.reader() as reader:
                out[field] = [t.decode("utf-8") if isinstance(t, bytes) else t for t in reader.lexicon(field)]
    return out


def part_lines(corpus: Path | str, start: int, end: int, first: int) -> Iterator[tuple[int, bytes]]:
    """The lines of one part of ``corpus.jsonl`` (bytes ``start`` to ``end``, without their line break),
    numbered from ``first``."""
    with open(corpus, "rb") as fh:
        fh.seek(start)
        pos, order = start, first
        for raw in fh:
            if pos >= end:
                break
            pos += len(raw)
            yield order, raw.rstrip(b"\n")
            order += 1


def parse_record(corpus: Path | str, order: int, line: str) -> tuple[dict, Any, Any]:
    """A line's record, its tokens and its links; a damaged line is named."""
    try:
        rec = json.loads(line)
        toks, links = pair_tokens(rec)
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{corpus}:{order + 1}: not a paranon record ({exc})") from None
    return rec, toks, links


def part_records(corpus: Path | str, start: int, end: int, first: int) -> Iterator[tuple[int, str, dict, Any, Any]]:
    """The records of one part of ``corpus.jsonl`` (``part_lines``): (corpus number, the line, the record,
    its tokens, its links)."""
    for order, raw in part_lines(corpus, start, end, first):
        line = raw.decode("utf-8")
        yield order, line, *parse_record(corpus, order, line)


class PartIndexer:
    """The job of an index-building process: ``done`` counts the pairs indexed so far over all the processes
    (a shared counter made before they fork, for the progress bar; or None)."""

    def __init__(self, done: Any = None) -> None:
        self.done = done

    def __call__(self, job: tuple[str, str, int, int, int]) -> tuple[Any, dict[str, Counter], StatsBuilder]:
        return _index_part(job, self.done)


def _index_part(job: tuple[str, str, int, int, int], done: Any) -> tuple[Any, dict[str, Counter], StatsBuilder]:
    """Index one run of ``corpus.jsonl``'s lines into a segment of its own; returns the segment, the run's
    translation counts and its figures. Each part is read, parsed, tokenized and counted by the process that
    indexes it: the pairs never travel between processes."""
    folder, corpus, start, end, first = job
    writer = SegmentWriter(open_index(folder), _lk=False, limitmb=128, codec=PortalCodec())
    analyzer = folded_analyzer()
    table = TableBuilder(lambda word: [t.text for t in analyzer(word)])
    stats = StatsBuilder()
    order = first  # the corpus number after the part's last pair
    for order, line, rec, toks, links in part_records(corpus, start, end, first):
        table.add(rec, toks, links)
        stats.add(rec, toks)
        cats = sorted({m["category"] for m in rec["src_mentions"] + rec["tgt_mentions"]})
        meta = " ".join(f"{v}" for p in rec.get("meta", {}).get("props", []) for v in p)
        writer.add_document(id=rec["id"], doc=rec["doc"], categories=",".join(cats), src=rec["src"],
                            tgt=rec["tgt"], meta=meta, order=order, rec=line, tokens=pack_tokens(toks, links))
        order += 1
        if done is not None and order % 500 == 0:
            with done.get_lock():
                done.value += 500
    if done is not None:
        with done.get_lock():
            done.value += (order - first) % 500
    return writer._finalize_segment(), table.counts, stats


def _build(target: Path, corpus: Path, first: dict[str, Any], quiet: bool) -> dict[str, float]:
    """The index and its side files, in ``target``; returns the wall seconds of its phases."""
    t0 = time.perf_counter()
    langs = {"src": first.get("src_lang", "pt"), "tgt": first.get("tgt_lang", "en")}
    ix = windex.create_in(str(target), make_schema())
    procs = max(1, min(4, os.cpu_count() or 1))
    parts = _parts(corpus, procs)
    writer = SegmentWriter(ix, codec=PortalCodec())  # holds the lock; lists the parts' segments at the end
    table = TableBuilder(lambda word: ())
    index_part = PartIndexer(get_context("fork").Value("q", 0))  # before the fork: the processes inherit it
    jobs = [(str(target), str(corpus), *part) for part in parts]
    n = min(procs, len(parts))
    with tqdm(desc="index", unit=" pairs", disable=quiet, mininterval=0.5) as bar:
        if n < 2 or not hasattr(os, "fork"):
            results = [index_part(job) for job in jobs]
        else:
            with Workers(index_part, n, setup=False, start="fork") as pool:
                numbers = [pool.submit(job) for job in jobs]
                results = [pool.result(k, tick=lambda: bar.update(index_part.done.value - bar.n)) for k in numbers]
        bar.update(sum(s.doc_count() for s, _, _ in results) - bar.n)
    t1 = time.perf_counter()
    stats = StatsBuilder()
    for _, counts, part_stats in results:
        stats.merge(part_stats)
        for side, got in counts.items():
            if table.counts[side]:
                table.counts[side].update(got)
            else:
                table.counts[side] = got
    writer._close_segment()
    writer._commit_toc([segment for segment, _, _ in results])
    writer._finish()
    t2 = time.perf_counter()
    # the side files: hot postings a field per process, while this one groups stems and writes the table
    (target / HOT_DIR).mkdir()
    with _pool(min(procs, len(HOT_FIELDS))) as pool:
        hot = pool.map_async(_hot_field, [(str(target), f) for f in HOT_FIELDS]) if pool else None
        with open_index(target).searcher() as searcher:
            reader = searcher.reader()
            stems = {side: {"lang": lang, "groups": stem_groups(reader, side, lang)} for side, lang in langs.items()}
            write_lexicon(reader, target, tuple(langs))
            if hot is None:
                write_hot(searcher, target)
        (target / STEMS_FILE).write_text(json.dumps(stems, ensure_ascii=False), encoding="utf-8")
        table.write(target)
        (target / STATS_FILE).write_text(json.dumps(stats.result(), ensure_ascii=False), encoding="utf-8")
        if hot is not None:
            hot.get()
    # the parts in parallel; their counts merged and the segments committed; hot postings, stems, table
    return {"parts": round(t1 - t0, 1), "commit": round(t2 - t1, 1), "side_files": round(time.perf_counter() - t2, 1)}


def build_index(outdir: str | Path, quiet: bool = True, backend: str = "tantivy", state: Path | None = None) -> Path:
    """(Re)build ``OUTDIR/index`` from ``OUTDIR/corpus.jsonl`` with ``backend`` (``whoosh`` or ``tantivy``,
    ``backends.py``); returns the index folder. ``state``: a private file (``paranon run``: in its checkpoint)
    where a tantivy build leaves what ``index_update`` needs to update the index in place.

    The corpus is cut into one run of lines per core; each run becomes a segment of the index, written by
    its own process, and the segments are listed together in one commit (Whoosh's own multiprocess writer
    sends every pair from one reading process to the others, which cost a fifth more CPU)."""
    from .backends import BACKEND_FILE, check_backend
    from .index_prep import prep_folder

    check_backend(backend)
    corpus, first = corpus_head(Path(outdir))
    target = new_folder(Path(outdir))
    try:
        write_groups(corpus, target)  # before the parts: tantivy marks each group's first pair
        side = digests = None
        if backend == "tantivy":
            from .tantivy_index import build

            phases, side, digests = build(target, corpus, first, quiet, prep_folder(state))
        else:
            phases = _build(target, corpus, first, quiet)
        # the engine, and the wall seconds of the build's phases (bench/portal.py reports them)
        (target / BACKEND_FILE).write_text(json.dumps({"backend": backend, "build_s": phases}), encoding="utf-8")
        if state is not None:
            from .index_update import save_state

            save_state(state, target, corpus, side, digests)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)  # a failed build leaves nothing behind; the old index stays
        raise
    swap_in(Path(outdir), target)
    return target
