"""The whole run, one way: read -> anonymize source -> consistency -> align -> transfer and write -> index.

This module only orders the stages (``paranon/stage_*.py``) and gathers the report; it keeps no state of its
own. The run is resumable:

* the corpus is cut into chunks of whole documents (``chunk_size`` pairs); each anonymized chunk is
  checkpointed in ``OUTDIR/.work`` (:class:`paranon.workdir.WorkDir`, owner-only: it holds originals until the
  run ends, then it is deleted);
* the aligner learns from the whole corpus once, reading token files from disk;
* transfer and writing go chunk by chunk into part files, committed with their key-store rows; the final files
  are concatenated from the parts (:mod:`paranon.outputs`) and renamed into place only when complete;
* a complete run keeps its chunks' checkpoints (not the token files) in ``OUTDIR/.checkpoint``, owner-only, for
  ``paranon apply`` (:mod:`paranon.apply`) to recompute only what a review's decisions touch.

Killing the run at any point and starting the same command again continues from the last completed chunk; the
outputs are the same as an uninterrupted run's, and the same whatever ``--workers`` is (documents are
anonymized independently and eflomal is seeded). ``--restart`` throws the checkpoints away.
"""

from __future__ import annotations

import logging
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .anonymize.engine import Anonymizer
from .anonymize.keystore import KeyStore, entity_rows
from .audit_state import STATE_FILE as AUDIT_STATE
from .errors import InputError
from .outputs import assemble
from .parallel import Runner, use_scheduler
from .report import publish_report
from .runlock import OutdirLock, clean_leftovers
from .settings import Settings
from .stage_align import run_align
from .stage_anonymize import ReadCounts, run_anonymize
from .stage_common import quiet_gc
from .stage_consistency import run_consistency
from .stage_transfer import run_transfer
from .stats import Stats
from .workdir import WorkDir, fingerprint

log = logging.getLogger("paranon")


@dataclass
class RunRecord:
    """What the stages tell the report."""

    counts: ReadCounts
    stats: Stats
    consistency_masks: int
    aligner: str
    workers: int
    resumed: bool
    timings: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def timed(self, name: str):
        t0 = time.perf_counter()
        yield
        self.timings[name] = time.perf_counter() - t0


def run(input_path: str | Path, outdir: str | Path, cfg: dict[str, Any], quiet: bool = False,
        restart: bool = False) -> dict[str, Any]:
    outdir = Path(outdir).absolute()  # jobs name their chunk files by path, for Dask workers too
    settings = Settings.of(cfg)
    if not Path(input_path).exists() and settings.input.format != "moses" \
            and not Path(f"{input_path}.{cfg['src']}").exists():
        raise InputError(f"{input_path}: no such file or folder")
    outdir.mkdir(parents=True, exist_ok=True)
    with OutdirLock(outdir):  # one run per OUTDIR; a killed run's lock is taken over
        removed = clean_leftovers(outdir)
        if removed:
            log.info("removed %d folder(s) or file(s) a killed run left", len(removed))
        # every file the run writes in .work (originals) is owner-only; the public outputs set their own mode
        umask = os.umask(0o077)
        try:
            return _stages(input_path, outdir, cfg, settings, quiet, restart, umask)
        finally:
            os.umask(umask)


def _stages(input_path: str | Path, outdir: Path, cfg: dict[str, Any], settings: Settings, quiet: bool,
            restart: bool, umask: int) -> dict[str, Any]:
    anonymizer = Anonymizer(cfg)
    quiet_gc()
    workers = settings.workers or os.cpu_count() or 1
    if anonymizer.scope == "corpus":
        workers = 1  # corpus-wide numbering needs one numberer
    work, resumed = WorkDir.open(outdir, fingerprint(input_path, cfg), restart)
    if resumed:
        log.info("resuming from the checkpoints in %s", work.path)
    with use_scheduler(settings.scheduler or None, workers, work / "dask") as runner:
        if anonymizer.scope == "corpus":  # corpus scope stays in this process
            runner = Runner(1, runner.client)
        rec = _source_and_target(input_path, cfg, settings, work, anonymizer, runner, quiet, resumed)
    KeyStore.set_files(work / "keys.sqlite", rec.counts.files, input_path)
    return publish(outdir, work, rec, cfg, anonymizer.scope, umask, quiet)


def publish(outdir: Path, work: WorkDir, rec: RunRecord, cfg: dict[str, Any], scope: str, umask: int,
            quiet: bool, extra: dict[str, Any] | None = None, incremental: bool = False) -> dict[str, Any]:
    """The outputs from the written chunks, the index, the report (with ``extra``) and its audit; then the
    checkpoints that ``paranon apply`` needs are kept in ``OUTDIR/.checkpoint`` (private), the rest deleted.
    ``incremental`` (``paranon apply``): the index updated in place where it can be."""
    settings = Settings.of(cfg)
    with rec.timed("write"):
        assemble(outdir, work.path, rec.counts.chunks, settings.src, settings.tgt)
    os.umask(umask)  # the index is public: readable as the user's umask makes it
    if settings.index.enabled:
        with rec.timed("index"):
            _index(outdir, work, settings.index.backend, quiet, incremental)
    n_entities, rows = entity_rows(outdir / "keys.sqlite")
    report = _report(rec, settings, scope, n_entities) | (extra or {})
    # report.json/.html, then the leak audit on top of them (its state kept for the next one: apply's)
    publish_report(outdir, report, rows, cfg, work / AUDIT_STATE)
    os.umask(0o077)
    try:
        work.keep(outdir, cfg)
    finally:
        os.umask(umask)
    return report


def _index(outdir: Path, work: WorkDir, backend: str, quiet: bool, incremental: bool) -> None:
    """The index built (its counts kept in the checkpoint), or updated from them (``index_update``)."""
    from .search_portal.index_update import STATE_FILE

    if incremental:
        from .search_portal.index_update import update_index

        update_index(outdir, work / STATE_FILE, quiet, backend)
    else:
        from .search_portal.indexer import build_index

        build_index(outdir, quiet=quiet, backend=backend, state=work / STATE_FILE)


def _source_and_target(input_path: str | Path, cfg: dict[str, Any], settings: Settings, work: WorkDir,
                       anonymizer: Anonymizer, runner: Runner, quiet: bool, resumed: bool) -> RunRecord:
    """The four chunked stages, in order."""
    t0 = time.perf_counter()
    counts = run_anonymize(input_path, cfg, settings, work, anonymizer, runner, quiet)
    timings = {"read_anonymize": time.perf_counter() - t0}
    if counts.chunks == 0:  # nothing to write: an error, not an empty corpus
        work.remove()
        why_none = "; ".join(f"{k}: {v}" for k, v in counts.reasons.items()) or "the input holds no unit"
        first = f" (first: {counts.examples[0]})" if counts.examples else ""
        raise InputError(f"{input_path}: no pair to write ({counts.skipped} unit(s) skipped; {why_none}){first}")
    rec = RunRecord(counts, Stats(), 0, "", runner.workers, resumed, timings)
    with rec.timed("consistency"):
        rec.consistency_masks, sizes, forms = run_consistency(cfg, settings.anonymize.corpus_consistency, work,
                                                              counts.chunks, anonymizer, runner, quiet)
    with rec.timed("align"):
        aligned = run_align(cfg, work, counts.chunks)
    rec.aligner = aligned["aligner"]
    with rec.timed("transfer"):
        rec.stats = run_transfer(cfg, work, sizes, anonymizer, forms, runner, quiet, aligned.get("symmetrization"))
    return rec


def _input_aliases(files: dict[str, str]) -> str:
    aliases = sorted(files.values())
    if len(aliases) <= 3:
        return ", ".join(aliases)
    return f"{len(aliases)} files ({aliases[0]} to {aliases[-1]})"


def _report(rec: RunRecord, settings: Settings, scope: str, n_entities: int) -> dict[str, Any]:
    """``report.json``'s content (the entity rows are added by :func:`publish_report`)."""
    counts, stats = rec.counts, rec.stats
    return {
        # the input by its files' aliases, never a path (file and folder names can name people)
        "input": _input_aliases(counts.files), "src_lang": settings.src, "tgt_lang": settings.tgt, "aligner": rec.aligner,
        "units": {"read": stats.written + counts.skipped, "written": stats.written, "skipped": counts.skipped,
                  "skipped_by_reason": counts.reasons, "skipped_examples": counts.examples},
        "input_placeholders": counts.input_placeholders, "ids": settings.ids,
        "long_segments": counts.long_segments,
        "mentions": {"src": dict(stats.src), "tgt": dict(stats.tgt)},
        "entities": n_entities,
        "rules": dict(stats.rules.most_common()),
        "consistency_masks": {"src": rec.consistency_masks, "tgt": stats.consistency_tgt},
        "transfer": {"steps": dict(stats.steps), "guard_masks": stats.guard_masks,
                     "target_only": stats.target_only, "untransferred": dict(stats.untransferred),
                     "untransferred_units": stats.untransferred_units},
        "scope": scope, "workers": rec.workers, "scheduler": settings.scheduler or None,
        "chunks": counts.chunks, "resumed": rec.resumed,
        "timings_s": {k: round(v, 3) for k, v in rec.timings.items()},
    }
