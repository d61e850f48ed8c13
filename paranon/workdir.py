"""A run's checkpoints: ``OUTDIR/.work``, what they belong to (the fingerprint), their files and done markers.

The folder is owner-only: it holds originals. When the run ends, what ``paranon apply`` needs of it is kept as
``OUTDIR/.checkpoint`` (owner-only too, never public), the rest is deleted. Every file is written
to a ``.part`` name and renamed into place, so a file that exists is complete; a chunk's or a stage's last
file marks it done.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import shutil
from pathlib import Path
from typing import Any

from .collector import paused_gc

log = logging.getLogger("paranon")

CHECKPOINT = ".checkpoint"  # OUTDIR/.checkpoint: what a complete run keeps for ``paranon apply`` (private)
CONFIG = "config.pkl"  # the run's settings, in the checkpoint
SCRATCH = ("tokens.*", "links.*", "tok-*", "*.part", "state.json", "dask")  # only the run itself needs these

WORK_VERSION = 10  # 7: opaque ids and anonymized metadata in the checkpoints; 8: target forms' evidence;
# 9: dataclasses (Anonymized, AnonChunk, TransferredChunk) and EntityNumbers in the checkpoints; 10: cons-K
# beside anon-K, target forms and report counts per document (for ``paranon apply``)


def fingerprint(input_path: str | Path, cfg: dict[str, Any]) -> str:
    """What a checkpoint belongs to: the input files (name, size, mtime) and every setting but where the
    jobs run (``workers``, ``scheduler``): a run may resume on another cluster."""
    p = Path(input_path)
    files = sorted(p.rglob("*")) if p.is_dir() else [f for f in (p, Path(f"{p}.{cfg['src']}"),
                                                                  Path(f"{p}.{cfg['tgt']}")) if f.exists()]
    h = hashlib.sha256()
    for f in files:
        if f.is_file():
            st = f.stat()
            h.update(f"{f.resolve()}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    settings = {k: v for k, v in cfg.items() if k not in ("workers", "scheduler")}
    h.update(json.dumps(settings, sort_keys=True, default=str).encode())
    h.update(str(WORK_VERSION).encode())
    return h.hexdigest()


class WorkDir:
    """The checkpoint folder of one run. Picklable (a path): stage objects carry it to their workers."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def open(cls, outdir: Path, print_: str, restart: bool) -> tuple[WorkDir, bool]:
        """The run's folder, kept (resumed) when its checkpoints have the same fingerprint and no restart is
        asked, else emptied; returns it and whether it resumed."""
        work = outdir / ".work"
        state = work / "state.json"
        resumed = False
        if work.exists():
            same = state.exists() and json.loads(state.read_text(encoding="utf-8")).get("fingerprint") == print_
            if restart or not same:
                if not restart:
                    log.info("checkpoints in %s belong to another input or config: starting over", work)
                shutil.rmtree(work)
            else:
                resumed = True
        work.mkdir(parents=True, exist_ok=True)
        work.chmod(0o700)  # holds originals until the run ends
        wd = cls(work)
        wd.write_json("state.json", {"fingerprint": print_})
        return wd, resumed

    def __truediv__(self, name: str) -> Path:
        return self.path / name

    @staticmethod
    def chunk(prefix: str, k: int, ext: str = "pkl") -> str:
        """A chunk's file name: ``anon-000003.pkl``."""
        return f"{prefix}-{k:06d}.{ext}"

    def has(self, name: str) -> bool:
        return (self.path / name).exists()

    def dump(self, name: str, obj: Any, sync: bool = True) -> None:
        """Pickle ``obj`` into ``name``, synced (unless ``sync`` is false: see :meth:`sync_since`), renamed
        into place."""
        path = self.path / name
        tmp = path.with_name(path.name + ".part")
        with open(tmp, "wb") as fh:
            pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        os.replace(tmp, path)

    def sync_since(self, ns: int) -> int:
        """Flush to disk every file of the folder changed since ``ns`` (``time.time_ns``), then the folder: the
        files written without a sync, all at once when their writer has finished (the kernel has written most of
        them meanwhile, and a writer no longer waits on the disk for each). Returns how many."""
        n = 0
        for p in self.path.iterdir():
            if p.is_file() and p.stat().st_mtime_ns >= ns:
                fd = os.open(p, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
                n += 1
        fd = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return n

    def load(self, name: str) -> Any:
        """Unpickle ``name``, the cyclic collector paused meanwhile (every object loaded stays: walking them again
        at each collection while a chunk of a hundred thousand objects loads was half of the load)."""
        with open(self.path / name, "rb") as fh, paused_gc():
            return pickle.load(fh)

    def drop(self, name: str) -> None:
        (self.path / name).unlink(missing_ok=True)

    def write_json(self, name: str, obj: Any) -> None:
        path = self.path / name
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)

    def read_json(self, name: str) -> Any:
        return json.loads((self.path / name).read_text(encoding="utf-8"))

    def done(self, stage: str) -> Any | None:
        """The record a finished stage left (``STAGE.done``), or None when it has not finished."""
        return self.read_json(f"{stage}.done") if self.has(f"{stage}.done") else None

    def mark_done(self, stage: str, record: Any) -> None:
        self.write_json(f"{stage}.done", record)

    def remove(self) -> None:
        shutil.rmtree(self.path)

    def keep(self, outdir: Path, cfg: dict[str, Any]) -> None:
        """End a complete run: the chunks' checkpoints (recognized, consistent and transferred items with their
        links, part files, forms, key store) become ``OUTDIR/.checkpoint`` with the settings, for ``paranon
        apply``; what only the run needed (token files, whole-corpus links) goes. Owner-only: originals."""
        for pattern in SCRATCH:
            for p in self.path.glob(pattern):
                shutil.rmtree(p) if p.is_dir() else p.unlink()
        self.dump(CONFIG, cfg)
        kept = outdir / CHECKPOINT
        if kept.exists():
            shutil.rmtree(kept)
        os.replace(self.path, kept)

    @classmethod
    def reopen(cls, outdir: Path) -> WorkDir:
        """The checkpoint a complete run kept, moved back to ``OUTDIR/.work`` for ``paranon apply``."""
        work = outdir / ".work"
        if work.exists():
            shutil.rmtree(work)  # a killed run's or apply's
        os.replace(outdir / CHECKPOINT, work)
        return cls(work)
