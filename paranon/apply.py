"""``paranon apply``: a review's decisions recomputed from the run's checkpoint, only where they reach.

A complete run keeps its chunks' checkpoints in ``OUTDIR/.checkpoint`` (owner-only: originals). Applying the
decisions of ``review.yaml`` then goes, in the run's order, only where something can change:

1. **recognize** again only the documents whose source text (with its metadata and inline code; folded
   words) holds a string whose decision changed, or that a per-document decision names;
2. **corpus forms** from every chunk's saved forms (those chunks' afresh); the chunks whose source text holds
   a form that came, went or changed kind are made consistent again, with the recognized ones and those
   whose target text holds a decision's string (the target side reads the allow list too);
3. **transfer** (pass 1) those chunks again over the run's alignment: a pair whose anonymized source changed
   keeps its links, each new token taking the target words its original characters were linked to (the
   aligner is not run again: a full re-run's aligner would learn a slightly different model from the new
   tokens, which is the one difference from ``paranon run`` with the same decisions);
4. **target forms** of the corpus again; the chunks whose target text holds a target form that changed are
   written again (pass 2) with those of step 3, their key-store rows replaced;
5. the output files concatenated again from the chunks' parts, the index built, the report and its audit.

The per-chunk steps run on the run's cores, chunk K always in the same process, which keeps the files it
loaded (:mod:`paranon.apply_workers`).

Numbering within a document or a segment makes each document's numbers its own, so a document not touched
keeps its bytes. ``corpus`` scope (one count over the whole corpus), a checkpoint of another version or
settings that differ in more than the decisions make :func:`apply_decisions` return None: a full re-run.
"""

from __future__ import annotations

import logging
import os
import pickle
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .align.finish import TargetForms, target_forms_of
from .anonymize.consistency import CorpusForms
from .anonymize.engine import Anonymizer
from .anonymize.keystore import KeyStore
from .apply_chunk import CachedWork
from .apply_reach import DocTexts, Reach
from .apply_workers import ChunkPool, ChunkSteps
from .collector import paused_gc
from .pipeline import RunRecord, publish
from .runlock import OutdirLock
from .settings import Settings
from .stage_anonymize import ReadCounts
from .stats import Stats
from .workdir import CHECKPOINT, CONFIG, WorkDir

log = logging.getLogger("paranon")
DECISION_KEYS = ("allow", "allow_in_documents", "deny", "same_entity", "different_entities")  # what a review changes; any other setting: a full run


def _settings_but_decisions(cfg: dict[str, Any]) -> dict[str, Any]:
    # the index and the portal are built afresh by apply with the settings given now: they decide nothing
    # that the checkpoint holds
    rest = {k: v for k, v in cfg.items() if k not in ("workers", "scheduler", "anonymize", "index", "portal")}
    rest["anonymize"] = {k: v for k, v in cfg["anonymize"].items() if k not in DECISION_KEYS}
    return rest


def apply_decisions(outdir: Path, cfg: dict[str, Any], quiet: bool = True,
                    everything: bool = False) -> dict[str, Any] | None:
    """Recompute ``outdir`` from its checkpoint with ``cfg`` (the run's settings and the decisions); None when
    only a full re-run can (no checkpoint, ``corpus`` scope, other settings). ``everything``: recognize every
    document again (the reference the tests compare the incremental result with)."""
    outdir = Path(outdir).absolute()
    kept = outdir / CHECKPOINT / CONFIG
    if not kept.exists():
        return None
    with open(kept, "rb") as fh:
        old_cfg = pickle.load(fh)
    old_rest, rest = _settings_but_decisions(old_cfg), _settings_but_decisions(cfg)
    differ = sorted(k for k in old_rest.keys() | rest.keys() if old_rest.get(k) != rest.get(k))
    differ += sorted(f"anonymize.{k}" for k in old_rest["anonymize"].keys() | rest["anonymize"].keys()
                     if old_rest["anonymize"].get(k) != rest["anonymize"].get(k))
    if differ or cfg["anonymize"]["scope"] == "corpus":
        why = f"settings differ from the run's ({', '.join(differ[:5])})" if differ else "anonymize.scope is corpus"
        log.warning("apply: %s: a full re-run", why)
        return None
    with OutdirLock(outdir):
        umask = os.umask(0o077)  # the checkpoint's files hold originals
        try:
            work = CachedWork(WorkDir.reopen(outdir).path)
            reach = Reach.between(old_cfg["anonymize"], cfg["anonymize"])
            started = time.time_ns()
            with paused_gc():
                rec = _recompute(work, cfg, reach, everything, quiet)
            with rec.timed("sync"):
                work.sync_since(started)
            return publish(outdir, work, rec, cfg, cfg["anonymize"]["scope"], umask, quiet, {"applied": rec.applied},
                           incremental=True)
        finally:
            os.umask(umask)


@dataclass
class ApplyRecord(RunRecord):
    applied: dict[str, int] = field(default_factory=dict)


def _recompute(work: CachedWork, cfg: dict[str, Any], reach: Reach, everything: bool, quiet: bool) -> ApplyRecord:
    settings = Settings.of(cfg)
    an = Anonymizer(cfg)
    counts = ReadCounts(**work.done("anonymize"))
    rec = ApplyRecord(counts, Stats(), 0, work.done("align")["aligner"], 1, False, {})
    chunks = range(counts.chunks)
    steps = ChunkSteps(work, an, (settings.src, settings.tgt))
    with ChunkPool(steps, min(counts.chunks, settings.workers or os.cpu_count() or 1)) as pool:
        with rec.timed("read_anonymize"):
            got = pool.run("recognize", {k: (reach, everything) for k in chunks})
            recognized = {k: hit for k, (hit, _) in got.items() if hit}
            texts = {k: t for k, (_, t) in got.items()}
        with rec.timed("consistency"):
            forms, changed = _corpus_forms(work, an, chunks, set(recognized), settings.anonymize.corpus_consistency)
            # the target side reads the allow list too (an allowed form stays visible there): a pair whose
            # target holds a decision's string is transferred again, not recognized again
            redo = _union(recognized, _holding(texts, changed, "src"), _holding(texts, reach.keys(), "tgt"))
        with rec.timed("transfer"):
            rewrite = _transfer_and_write(work, pool, rec, texts, forms, redo)
    rec.applied = {"documents_recognized": sum(map(len, recognized.values())),
                   "documents_transferred": sum(map(len, redo.values())),
                   "documents_written": sum(map(len, rewrite.values())), "documents": sum(map(len, texts.values())),
                   "chunks_written": len(rewrite), "chunks": counts.chunks}
    return rec


def _transfer_and_write(work: CachedWork, pool: ChunkPool, rec: ApplyRecord, texts: dict[int, list[DocTexts]],
                        forms: CorpusForms | None, redo: Positions) -> Positions:
    """Transfer ``redo`` again (pass 1), then write again (pass 2) those and the documents where pass 2 finds a
    target form that changed; the key store's rows replaced. Returns the documents written."""
    chunks = sorted(texts)
    pool.share("forms", forms.state() if forms is not None else None)
    found = pool.run("transfer", redo)
    rec.consistency_masks = sum(work.read_json(WorkDir.chunk("cons", k, "json"))["added"] for k in chunks)
    work.mark_done("consistency", {"added": rec.consistency_masks, "sizes": work.done("consistency")["sizes"]})
    old, new, changed, candidates = _new_targets(work, texts, forms is not None, found)
    pool.share("targets", (old, new, changed))
    candidates = {k: docs - redo.get(k, set()) for k, docs in candidates.items()}
    rewrite = _union(redo, pool.run("pass2", {k: docs for k, docs in candidates.items() if docs}))
    rows = pool.run("write", rewrite)
    keys = KeyStore(work / "keys.sqlite")
    try:
        for k, (new_rows, units) in sorted(rows.items()):
            keys.replace_units(k, new_rows, units)
    finally:
        keys.close()
    KeyStore.in_chunk_order(work / "keys.sqlite")
    rec.stats = Stats.merged([work.read_json(WorkDir.chunk("out", k, "json"))["stats"] for k in chunks])
    return rewrite


Positions = dict[int, set[int]]  # chunk -> positions of its documents


def _union(*parts: Positions) -> Positions:
    out: Positions = {}
    for part in parts:
        for k, docs in part.items():
            if docs:
                out.setdefault(k, set()).update(docs)
    return out


def _kinds(state: tuple[dict[str, int], list]) -> dict[str, Any]:
    forms, kinds = state
    return {key: kinds[i] for key, i in forms.items()}


def _corpus_forms(work: WorkDir, an: Anonymizer, chunks: Iterable[int], recognized: set[int],
                  enabled: bool) -> tuple[CorpusForms | None, set[str]]:
    """The corpus's forms again (``forms.pkl``) and the keys that came, went or changed kind."""
    if not enabled:
        return None, set()
    if not recognized:
        return CorpusForms.from_state(work.load("forms.pkl")), set()
    old = _kinds(work.load("forms.pkl"))
    forms = CorpusForms(an._propagation_forms)
    for k in chunks:
        forms.merge(work.load(WorkDir.chunk("forms", k)))
    work.dump("forms.pkl", forms.state())
    new = _kinds(forms.state())
    return forms, {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def _holding(texts: dict[int, list[DocTexts]], keys: Iterable[str], side: str,
             also: dict[str, set[str]] | None = None) -> Positions:
    """The documents whose ``side`` text holds one of the form ``keys`` (and, for a key in ``also``, whose
    source text holds one of the forms it gives)."""
    wanted = [(f" {k} ", {f" {s} " for s in (also or {}).get(k, ())}) for k in keys]
    if not wanted:
        return {}
    return {k: {j for j, d in enumerate(docs)
                if any(w in getattr(d, side) and (not src or any(s in d.src for s in src)) for w, src in wanted)}
            for k, docs in texts.items()}


def _new_targets(work: WorkDir, texts: dict[int, list[DocTexts]], enabled: bool, found: dict[int, list]
                 ) -> tuple[TargetForms, TargetForms, set[str], Positions]:
    """The corpus's target forms again (``targets.pkl``; ``found``: the target forms of the chunks transferred
    again, by document): the old and the new ones, the keys that came, went or changed kind, and the documents
    where pass 2 may find one of those (their target text holds one, or one whose source forms changed where
    the document's source holds one of those: a document's occurrence takes the number of its entity with one
    of those source forms)."""
    chunks = sorted(texts)
    old: TargetForms = work.load("targets.pkl")
    new = target_forms_of(f for k in chunks for f in (found[k] if k in found else
                                                      work.load(WorkDir.chunk("tr", k)).found)) if enabled \
        else TargetForms()
    work.dump("targets.pkl", new)

    def entries(t: TargetForms) -> dict[str, tuple]:
        kinds = _kinds(t.forms.state()) if t.forms is not None else {}
        return {key: (kinds.get(key), key in t.free, frozenset(t.sources.get(key, ())))
                for key in kinds.keys() | t.sources.keys() | t.free}

    a, b = entries(old), entries(new)
    changed, sources = set(), {}
    for key in a.keys() | b.keys():
        x, y = a.get(key), b.get(key)
        if x != y:
            changed.add(key)
            if x is not None and y is not None and x[:2] == y[:2]:
                sources[key] = x[2] ^ y[2]
    return old, new, changed, _holding(texts, changed, "tgt", sources)
