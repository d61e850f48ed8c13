"""TSV (header row, columns by name or index), Moses (two line-aligned files) and JSONL.

Each file is read line by line from bytes so that a bad byte sequence is reported
with its line number instead of stopping the whole run.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ...errors import InputError
from ..model import AnonymizedPair, Inline, SegmentPair
from .common import DOCUMENT_PAIRS, Problems, PseudoDocuments, normalize_text


def _decoded_lines(path: Path, problems: Problems) -> Iterator[tuple[int, str | None]]:
    """(line number, text or None when the line is not valid UTF-8)."""
    with open(path, "rb") as fh:
        for no, raw in enumerate(fh, 1):
            if no == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                yield no, raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as exc:
                problems.report(f"{path}:{no}", "bad encoding", f"not UTF-8 at byte {exc.start}")
                yield no, None


def _column(header: list[str], spec: str | int | None, candidates: tuple[str, ...], path: Path) -> int | None:
    if spec is None:
        lowered = [h.strip().lower() for h in header]
        return next((lowered.index(c) for c in candidates if c in lowered), None)
    if isinstance(spec, int) or str(spec).isdigit():
        idx = int(spec)
        if idx >= len(header):
            raise InputError(f"{path}:1: column index {idx} out of range (header has {len(header)} columns)")
        return idx
    if spec not in header:
        raise InputError(f"{path}:1: no column named {spec!r} (header: {', '.join(header)})")
    return header.index(spec)


def read_tsv(path: str | Path, src_lang: str, tgt_lang: str, problems: Problems,
             src_col: str | int | None = None, tgt_col: str | int | None = None,
             doc_pairs: int = DOCUMENT_PAIRS) -> Iterator[SegmentPair]:
    """Read a tab-separated file with a header row; unnamed columns become metadata. Without a document
    column (or where it is empty) the pairs get pseudo-documents of ``doc_pairs`` pairs."""
    path = Path(path)
    pseudo = PseudoDocuments(path.stem, doc_pairs)
    lines = _decoded_lines(path, problems)
    try:
        _, head = next(lines)
    except StopIteration:
        raise InputError(f"{path}: empty file (a header row is required)") from None
    if head is None:
        raise InputError(f"{path}:1: header is not valid UTF-8")
    header = head.split("\t")
    si = _column(header, src_col, (src_lang.lower(), "src", "source", "pt", "source_text"), path)
    ti = _column(header, tgt_col, (tgt_lang.lower(), "tgt", "target", "en", "target_text"), path)
    if si is None or ti is None:
        raise InputError(f"{path}:1: cannot find the {src_lang}/{tgt_lang} columns in the header "
                         f"({', '.join(header)}); name them with --src-col/--tgt-col")
    id_i = _column(header, None, ("id", "tuid", "unit"), path)
    doc_i = _column(header, None, ("doc", "doc_id", "document"), path)
    for no, line in lines:
        if line is None:
            continue
        where = f"{path}:{no}"
        if not line.strip():
            problems.report(where, "blank line")
            continue
        cells = line.split("\t")
        if len(cells) != len(header):
            problems.report(where, "wrong number of columns", f"{len(cells)} instead of {len(header)}")
            continue
        src, tgt = normalize_text(cells[si]), normalize_text(cells[ti])
        empty = [lang for lang, t in ((src_lang, src), (tgt_lang, tgt)) if not t.strip()]
        if empty:
            problems.report(where, f"empty {'/'.join(empty)} segment")
            continue
        doc = (cells[doc_i] if doc_i is not None else "") or pseudo.next()
        uid = cells[id_i] if id_i is not None else f"{path.stem}:{no}"
        if id_i is None and doc_i is not None and "tu_index" in header:
            uid = f"{doc}:{cells[header.index('tu_index')]}"
        meta = {h: c for k, (h, c) in enumerate(zip(header, cells, strict=True)) if k not in (si, ti, id_i, doc_i)}
        yield SegmentPair(id=uid, doc=doc, src=src, tgt=tgt, src_lang=src_lang, tgt_lang=tgt_lang,
                          meta={"columns": meta} if meta else {}, origin=where)


def moses_paths(path: str | Path, src_lang: str, tgt_lang: str) -> tuple[Path, Path]:
    """``corpus.pt`` or the prefix ``corpus`` -> (``corpus.pt``, ``corpus.en``)."""
    path = Path(path)
    if path.suffix.lstrip(".") in (src_lang, tgt_lang):
        path = path.with_suffix("")
    return Path(f"{path}.{src_lang}"), Path(f"{path}.{tgt_lang}")


def read_moses(path: str | Path, src_lang: str, tgt_lang: str, problems: Problems,
               doc_pairs: int = DOCUMENT_PAIRS) -> Iterator[SegmentPair]:
    """Two plain files with one segment per line; the pair is line k of each. Moses files name no
    documents: the pairs get pseudo-documents of ``doc_pairs`` pairs."""
    src_path, tgt_path = moses_paths(path, src_lang, tgt_lang)
    for p in (src_path, tgt_path):
        if not p.exists():
            raise InputError(f"{p}: Moses file not found (expected {src_path.name} and {tgt_path.name})")
    doc = src_path.with_suffix("").name
    pseudo = PseudoDocuments(doc, doc_pairs)
    src_lines = _decoded_lines(src_path, problems)
    tgt_lines = _decoded_lines(tgt_path, problems)
    no = 0
    while True:
        s = next(src_lines, None)
        t = next(tgt_lines, None)
        if s is None and t is None:
            return
        no += 1
        if s is None or t is None:
            longer = tgt_path if s is None else src_path
            rest = 1 + sum(1 for _ in (tgt_lines if s is None else src_lines))
            problems.report(f"{longer}:{no}", "line counts differ",
                            f"{rest} extra line(s) in {longer.name} have no counterpart")
            return
        if s[1] is None or t[1] is None:
            continue
        src, tgt = normalize_text(s[1]), normalize_text(t[1])
        where = f"{src_path}:{no}"
        empty = [lang for lang, x in ((src_lang, src), (tgt_lang, tgt)) if not x.strip()]
        if empty:
            problems.report(where, f"empty {'/'.join(empty)} segment")
            continue
        yield SegmentPair(id=f"{doc}:{no}", doc=pseudo.next(), src=src, tgt=tgt, src_lang=src_lang,
                          tgt_lang=tgt_lang, origin=where)


def pair_record(pair: SegmentPair) -> dict:
    rec = {"id": pair.id, "doc": pair.doc, "src_lang": pair.src_lang, "tgt_lang": pair.tgt_lang,
           "src": pair.src, "tgt": pair.tgt, "meta": pair.meta}
    if pair.src_inline or pair.tgt_inline:
        rec["src_inline"] = [[i.offset, i.xml] for i in pair.src_inline]
        rec["tgt_inline"] = [[i.offset, i.xml] for i in pair.tgt_inline]
    return rec


def read_jsonl(path: str | Path, src_lang: str, tgt_lang: str, problems: Problems,
               doc_pairs: int = DOCUMENT_PAIRS) -> Iterator[SegmentPair]:
    """The internal record (docs/formats.md); gold files are read the same way. Records without ``doc``
    get pseudo-documents of ``doc_pairs`` pairs."""
    path = Path(path)
    pseudo = PseudoDocuments(path.stem, doc_pairs)
    for no, line in _decoded_lines(path, problems):
        if line is None or not line.strip():
            continue
        where = f"{path}:{no}"
        try:
            rec = json.loads(line)
            src, tgt = rec["src"], rec["tgt"]
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            problems.report(where, "bad JSON record", str(exc))
            continue
        if not str(src).strip() or not str(tgt).strip():
            problems.report(where, "empty segment")
            continue
        yield SegmentPair(id=str(rec.get("id", f"{path.stem}:{no}")), doc=str(rec.get("doc") or pseudo.next()),
                          src=src, tgt=tgt, src_lang=rec.get("src_lang", src_lang),
                          tgt_lang=rec.get("tgt_lang", tgt_lang), meta=rec.get("meta", {}),
                          src_inline=[Inline(o, x) for o, x in rec.get("src_inline", [])],
                          tgt_inline=[Inline(o, x) for o, x in rec.get("tgt_inline", [])], origin=where)


def flat(text: str) -> str:
    """One physical line: tabs and line breaks inside a segment become spaces."""
    return text.replace("\t", " ").replace("\r", " ").replace("\n", " ")


class JsonlWriter:
    def __init__(self, fh: IO[str]) -> None:
        self.fh = fh

    def write(self, pair: AnonymizedPair | SegmentPair) -> None:
        rec = pair.to_record() if isinstance(pair, AnonymizedPair) else pair_record(pair)
        self.fh.write(json.dumps(rec, ensure_ascii=False) + "\n")

    def close(self) -> None:
        pass


class TsvWriter:
    def __init__(self, fh: IO[str], src_lang: str, tgt_lang: str, header: bool = True) -> None:
        self.fh = fh
        if header:
            self.write_header(fh, src_lang, tgt_lang)

    @staticmethod
    def write_header(fh: IO[str], src_lang: str, tgt_lang: str) -> None:
        fh.write(f"id\tdoc\t{src_lang}\t{tgt_lang}\n")

    def write(self, pair: AnonymizedPair | SegmentPair) -> None:
        self.fh.write("\t".join(flat(x) for x in (pair.id, pair.doc, pair.src, pair.tgt)) + "\n")

    def close(self) -> None:
        pass
