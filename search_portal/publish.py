"""Where an index is built and how it is published: a fresh folder in OUTDIR, then the ``index`` symlink
swapped to it in one rename (``indexer.build_index`` and ``index_update.update_index``)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from ..errors import InputError


def corpus_head(outdir: Path) -> tuple[Path, dict[str, Any]]:
    """``OUTDIR/corpus.jsonl`` and its first record (the languages)."""
    corpus = outdir / "corpus.jsonl"
    if not corpus.exists():
        raise FileNotFoundError(f"{corpus}: no corpus.jsonl to index (run `paranon run` first)")
    with open(corpus, encoding="utf-8") as fh:
        try:
            return corpus, json.loads(fh.readline() or "{}")
        except ValueError as exc:
            raise InputError(f"{corpus}:1: not a paranon record ({exc})") from None


def new_folder(outdir: Path) -> Path:
    """A fresh index folder in ``outdir`` (even for two builds in one second), readable by all."""
    target = Path(tempfile.mkdtemp(prefix=f"index-{time.strftime('%Y%m%d%H%M%S')}-", dir=outdir))
    target.chmod(0o755)
    return target


def swap_in(outdir: Path, target: Path) -> None:
    """Publish a complete index folder: the ``index`` symlink swapped to it in one rename (a running server
    never sees a half-built index), the previous folder deleted."""
    link = outdir / "index"
    tmp_link = outdir / f".index-link-{os.getpid()}"
    old = link.resolve() if link.is_symlink() else None
    if link.exists() and not link.is_symlink():
        shutil.rmtree(link)
    os.symlink(target.name, tmp_link)
    os.replace(tmp_link, link)
    if old and old != target and old.exists():
        shutil.rmtree(old, ignore_errors=True)
