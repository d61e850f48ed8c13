"""Downloads: the pairs the page shows (every filter of the search applies), in five formats, streamed.

``tmx``, ``tsv`` (the header of ``corpus.tsv``), ``jsonl`` (records as in ``corpus.jsonl``: their
``alignment`` indexes paranon's tokens), ``moses`` (a zip of ``corpus.SRC``, ``corpus.TGT`` and
``alignments.pharaoh``, the links over the white-space words of those two files) and ``pharaoh`` (that
alignment file alone, line for line with the Moses files of the same download).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, jsonify

from ..align.pharaoh import moses_links
from ..corpora.formats.tabular import TsvWriter
from ..corpora.formats.tmx import TmxWriter
from ..corpora.model import AnonymizedPair, parse_pharaoh, pharaoh
from .budget import QueryError
from .params import download_filters

downloads = Blueprint("downloads", __name__)
FORMATS = ("tmx", "moses", "tsv", "jsonl", "pharaoh")


def moses_line(text: str) -> str:
    """A segment as a line of a Moses file (as ``paranon run`` writes ``corpus.SRC``)."""
    return text.replace("\n", " ")


def pharaoh_line(rec: dict[str, Any]) -> str:
    """A record's links over the white-space words of its Moses lines."""
    return pharaoh(moses_links(moses_line(rec["src"]), moses_line(rec["tgt"]), parse_pharaoh(rec.get("alignment", ""))))


@downloads.route("/download")
def download():
    from .app import searcher

    try:
        fmt, filters = download_filters()
        s = searcher()
        if filters["q"]:
            s.search(page=1, per_page=1, distinct=False, **filters)  # validate the query (and remember its hits) before streaming
    except QueryError as exc:
        return jsonify(error=str(exc)), 400

    def records() -> Iterator[dict[str, Any]]:
        return s.all_records(**filters)

    langs = s.languages()  # for a download without a record to say them

    name = "paranon-" + ("search" if filters["q"] or filters["doc"] or filters["category"] else "corpus")
    if fmt == "jsonl":
        gen = (json.dumps(r, ensure_ascii=False) + "\n" for r in records())
        return _stream(gen, "application/jsonl", f"{name}.jsonl")
    if fmt == "tsv":
        return _stream(_written(records(), langs, TsvWriter), "text/tab-separated-values", f"{name}.tsv")
    if fmt == "tmx":
        return _stream(_written(records(), langs, TmxWriter), "application/x-tmx+xml", f"{name}.tmx")
    if fmt == "pharaoh":
        return _stream((pharaoh_line(r) + "\n" for r in records()), "text/plain", f"{name}.pharaoh")
    return _stream(_moses_zip(records, langs), "application/zip", f"{name}-moses.zip")


def _stream(gen, mimetype: str, filename: str) -> Response:
    resp = Response(gen, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


class _Chunks(io.StringIO):
    def take(self) -> str:
        v = self.getvalue()
        self.seek(0)
        self.truncate()
        return v


def _written(records, langs: tuple[str, str], writer) -> Iterator[str]:
    """The records through a corpus writer (``TsvWriter``, ``TmxWriter``), streamed: its languages are the
    first record's, or ``langs`` when there is none (a header alone)."""
    buf = _Chunks()
    w = None
    for r in records:
        if w is None:
            w = writer(buf, r.get("src_lang", "pt"), r.get("tgt_lang", "en"))
        w.write(AnonymizedPair.from_record(r))
        yield buf.take()
    if w is None:
        w = writer(buf, *langs)
    w.close()
    yield buf.take()


class _ZipSink(io.RawIOBase):
    """A write-only sink whose bytes are handed out as they are written (streamed zip)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        self.parts.append(bytes(b))
        return len(b)

    def take(self) -> bytes:
        out = b"".join(self.parts)
        self.parts = []
        return out


def _moses_zip(records: Callable[[], Iterator[dict[str, Any]]], langs: tuple[str, str]) -> Iterator[bytes]:
    """Three members (source, target, Pharaoh alignments over their white-space words) written one after
    the other, streamed: the records are read three times (``records()`` starts a pass), never held
    together."""
    sink = _ZipSink()
    peek = records()
    first = next(peek, None)
    peek.close()
    src_lang, tgt_lang = (first["src_lang"], first["tgt_lang"]) if first else langs
    members: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
        (f"corpus.{src_lang}", lambda r: moses_line(r["src"])), (f"corpus.{tgt_lang}", lambda r: moses_line(r["tgt"])),
        ("alignments.pharaoh", pharaoh_line))
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for member, line in members:
            with zf.open(member, "w") as fh:
                for r in records():
                    fh.write((line(r) + "\n").encode("utf-8"))
                    chunk = sink.take()
                    if chunk:
                        yield chunk
    yield sink.take()
