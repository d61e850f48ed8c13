"""Readers and writers for translation-memory formats, chosen by extension or by name."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ...errors import InputError
from ..model import SegmentPair
from .common import DOCUMENT_PAIRS, Problems
from .tabular import JsonlWriter, TsvWriter, moses_paths, read_jsonl, read_moses, read_tsv
from .tmx import TmxWriter, read_tmx

FORMATS = ("tmx", "tsv", "moses", "jsonl")

__all__ = ["DOCUMENT_PAIRS", "FORMATS", "InputError", "JsonlWriter", "Problems", "TmxWriter", "TsvWriter", "atomic_write",
           "detect_format", "read_corpus"]


def detect_format(path: Path, src_lang: str, tgt_lang: str) -> str:
    suffix = path.suffix.lower().lstrip(".")
    if suffix == "tmx":
        return "tmx"
    if suffix in ("tsv", "tab"):
        return "tsv"
    if suffix in ("jsonl", "ndjson"):
        return "jsonl"
    if suffix in (src_lang, tgt_lang) or Path(f"{path}.{src_lang}").exists():
        return "moses"
    raise InputError(f"{path}: cannot tell the format from the name; pass --format tmx|tsv|moses|jsonl")


def read_corpus(path: str | Path, src_lang: str, tgt_lang: str, problems: Problems, fmt: str | None = None,
                src_col: str | None = None, tgt_col: str | None = None,
                doc_pairs: int = DOCUMENT_PAIRS) -> Iterator[SegmentPair]:
    """Every pair of a file, or of every supported file in a folder (sorted by name). Pairs whose input
    names no document get pseudo-documents of ``doc_pairs`` consecutive pairs (``PseudoDocuments``)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".tmx", ".tsv", ".jsonl"))
        if not files:
            raise InputError(f"{path}: folder holds no .tmx, .tsv or .jsonl file")
        for f in files:
            yield from read_corpus(f, src_lang, tgt_lang, problems, fmt, src_col, tgt_col, doc_pairs)
        return
    fmt = fmt or detect_format(path, src_lang, tgt_lang)
    if fmt != "moses" and not path.exists():
        raise InputError(f"{path}: no such file")
    for f in (moses_paths(path, src_lang, tgt_lang) if fmt == "moses" else (path,)):
        problems.alias(f)  # the report names the file by its alias, never by its path
    if fmt == "tmx":
        yield from read_tmx(path, src_lang, tgt_lang, problems, doc_pairs=doc_pairs)
    elif fmt == "tsv":
        yield from read_tsv(path, src_lang, tgt_lang, problems, src_col, tgt_col, doc_pairs)
    elif fmt == "moses":
        yield from read_moses(path, src_lang, tgt_lang, problems, doc_pairs)
    elif fmt == "jsonl":
        yield from read_jsonl(path, src_lang, tgt_lang, problems, doc_pairs)
    else:
        raise InputError(f"{path}: unknown format {fmt!r} (known: {', '.join(FORMATS)})")


@contextmanager
def atomic_write(path: str | Path, mode: str = "w", perm: int = 0o644, sync: bool = True):
    """Write to a temporary file beside ``path`` and rename it into place only when complete, with ``perm``
    (0o600 for a file that holds originals); ``sync`` false: not flushed to disk before the rename (the caller
    syncs it later, ``WorkDir.sync_since``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8", newline=None if "b" in mode else "\n") as fh:
            yield fh
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        os.chmod(tmp, perm)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
