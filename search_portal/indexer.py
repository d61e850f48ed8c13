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
from whoosh.support.charset import accent_map

from .docsets import HOT_DIR, HOT_FIELDS, write_hot, write_hot_field
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


class PortalCodec(W3Codec):
    """Whoosh's codec without per-posting length statistics. Those feed the block-skipping of top-N
    relevance ranking; the portal lists hits in corpus order, never by score, and looking each posting's
    document length up again was a third of the index commit."""

    length_stats = False


STEMMER_LANGUAGES = {"pt": "portuguese", "en": "english", "es": "spanish", "fr": "french", "de": "german",
                     "it": "italian", "nl": "dutch"}
STEMS_FILE = "stems.json"


def stemmer(lang: str) -> Callable[[str], str]:
    """Snowball stemmer for a language code (English for languages without one)."""
    return StemFilter(lang=STEMMER_LANGUAGES.get(lang.split("-")[0].lower(), "english"))._stem


def stem_groups(reader, field: str, lang: str) -> dict[str, list[str]]:
    """The field's index terms grouped by stem; a stem whose only word is the stem itself is left out (a query
    word with that stem expands to the word alone)."""
    stem = stemmer(lang)
    groups: dict[str, list[str]] = {}
    for term in reader.lexicon(field):
        word = term.decode("utf-8") if isinstance(term, bytes) else term
        if not word.startswith("<"):
            groups.setdefault(stem(word), []).append(word)
    return {k: v for k, v in groups.items() if v != [k]}


def exact_analyzer():
    return RegexTokenizer(TOKEN_PATTERN)


def make_schema() -> Schema:
    return Schema(
        id=ID(stored=True, unique=True), doc=ID(stored=True), categories=KEYWORD(stored=True, commas=True),
        src=TEXT(analyzer=folded_analyzer(), phrase=True), tgt=TEXT(analyzer=folded_analyzer(), phrase=True),
        src_exact=TEXT(analyzer=exact_analyzer(), phrase=True), tgt_exact=TEXT(analyzer=exact_analyzer(), phrase=True),
        meta=TEXT(analyzer=folded_analyzer()), order=COLUMN(NumericColumn("I")), rec=STORED,
        tokens=STORED,  # pack_tokens: the pair's tokens and links, for highlighting
    )


def _hot_field(job: tuple[str, str]) -> None:
    folder, field = job
    with windex.open_dir(folder).searcher() as searcher:
        write_hot_field(searcher, Path(folder), field)


@contextmanager
def _pool(procs: int) -> Iterator[Any]:
    """A pool of forked processes, or None where there is one core or no fork."""
    if procs < 2 or not hasattr(os, "fork"):
        yield None
        return
    pool = get_context("fork").Pool(procs)
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()


def build_index(outdir: str | Path, quiet: bool = True) -> Path:
    """(Re)build ``OUTDIR/index`` from ``OUTDIR/corpus.jsonl``; returns the index folder."""
    outdir = Path(outdir)
    corpus = outdir / "corpus.jsonl"
    if not corpus.exists():
        raise FileNotFoundError(f"{corpus}: no corpus.jsonl to index (run `paranon run` first)")
    with open(corpus, encoding="utf-8") as fh:
        first = json.loads(fh.readline() or "{}")
    target = outdir / f"index-{time.strftime('%Y%m%d%H%M%S')}-{os.getpid()}"
    target.mkdir()
    langs = {"src": first.get("src_lang", "pt"), "tgt": first.get("tgt_lang", "en")}
    ix = windex.create_in(str(target), make_schema())
    # several processes index segments in parallel; each keeps its segment (multisegment: no merge at commit)
    procs = max(1, min(4, os.cpu_count() or 1))
    writer = ix.writer(limitmb=256, procs=procs, multisegment=True, batchsize=500, codec=PortalCodec()) \
        if procs > 1 else ix.writer(limitmb=256, codec=PortalCodec())
    analyzer = folded_analyzer()
    table = TableBuilder(lambda word: [t.text for t in analyzer(word)])
    with open(corpus, encoding="utf-8") as fh:
        for order, line in enumerate(tqdm(fh, desc="index", unit=" pairs", disable=quiet, mininterval=0.5)):
            rec = json.loads(line)
            toks, links = pair_tokens(rec)
            table.add(rec, toks, links)
            cats = sorted({m["category"] for m in rec["src_mentions"] + rec["tgt_mentions"]})
            meta = " ".join(f"{v}" for p in rec.get("meta", {}).get("props", []) for v in p)
            writer.add_document(id=rec["id"], doc=rec["doc"], categories=",".join(cats), src=rec["src"],
                                tgt=rec["tgt"], meta=meta, order=order, rec=line.rstrip("\n"),
                                tokens=pack_tokens(toks, links))
    writer.commit()
    # the side files: hot postings a field per process, while this one groups stems and writes the table
    (target / HOT_DIR).mkdir()
    with _pool(min(procs, len(HOT_FIELDS))) as pool:
        hot = pool.map_async(_hot_field, [(str(target), f) for f in HOT_FIELDS]) if pool else None
        with ix.searcher() as searcher:
            reader = searcher.reader()
            stems = {side: {"lang": lang, "groups": stem_groups(reader, side, lang)} for side, lang in langs.items()}
            if hot is None:
                write_hot(searcher, target)
        (target / STEMS_FILE).write_text(json.dumps(stems, ensure_ascii=False), encoding="utf-8")
        table.write(target)
        if hot is not None:
            hot.get()
    link = outdir / "index"
    tmp_link = outdir / f".index-link-{os.getpid()}"
    old = link.resolve() if link.is_symlink() else None
    if link.exists() and not link.is_symlink():
        shutil.rmtree(link)
    os.symlink(target.name, tmp_link)
    os.replace(tmp_link, link)
    if old and old != target and old.exists():
        shutil.rmtree(old, ignore_errors=True)
    return target
