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

Numbering within a document or a segment makes each document's numbers its own, so a document not touched
keeps its bytes. ``corpus`` scope (one count over the whole corpus), a checkpoint of another version or
settings that differ in more than the decisions make :func:`apply_decisions` return None: a full re-run.
"""

from __future__ import annotations

import logging
import os
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .align.finish import Finisher, TargetForms, target_forms_of
from .anonymize.anonymized import anonymize_docs
from .anonymize.consistency import CorpusForms, form_key
from .anonymize.corpus import corpus_forms
from .anonymize.engine import Anonymizer
from .anonymize.keystore import KeyStore
from .apply_chunk import CachedWork, by_document, cut
from .apply_workers import ChunkPool, ChunkSteps
from .collector import paused_gc
from .pipeline import RunRecord, publish
from .runlock import OutdirLock
from .settings import Settings
from .stage_anonymize import AnonChunk, ReadCounts
from .stage_consistency import consistent_items
from .stats import Stats
from .workdir import CHECKPOINT, CONFIG, WorkDir

log = logging.getLogger("paranon")
DECISION_KEYS = ("allow", "allow_in_documents", "deny", "same_entity", "different_entities")  # what a review changes; any other setting: a full run


def words(text: str) -> str:
    """The text's folded words between spaces: a string that any case- and accent-insensitive match on word
    boundaries finds (a deny-list entry, an allowed mention, a corpus form) is, as `` words(s) ``, in it."""
    return f" {form_key(text)} "


@dataclass
class Reach:
    """What the decisions' change reaches: strings (as :func:`words`) and documents named by a decision."""

    strings: set[str] = field(default_factory=set)
    docs: set[str] = field(default_factory=set)

    def keys(self) -> set[str]:
        return {s.strip() for s in self.strings}

    @classmethod
    def between(cls, old: dict[str, Any], new: dict[str, Any]) -> Reach:
        """The change from the ``anonymize`` section ``old`` to ``new``."""
        strings = set(old["allow"]) ^ set(new["allow"])
        deny = {(c, t) for c, ts in old["deny"].items() for t in ts} ^ {(c, t) for c, ts in new["deny"].items()
                                                                          for t in ts}
        strings |= {t for _, t in deny}
        for key in ("same_entity", "different_entities"):  # a merge or a split renumbers where its forms are
            strings |= {t for g in {tuple(g) for g in old.get(key, [])} ^ {tuple(g) for g in new.get(key, [])}
                        for t in g}
        per_doc = {(d, t) for d, ts in old["allow_in_documents"].items() for t in ts} \
            ^ {(d, t) for d, ts in new["allow_in_documents"].items() for t in ts}
        return cls({s for s in map(words, strings) if s.strip()}, {d for d, _ in per_doc})

    def touches(self, doc: str, texts: DocTexts) -> bool:
        """Whether the document's recognition may change: only its source side and metadata are recognized."""
        return doc in self.docs or any(s in texts.recognized for s in self.strings)


@dataclass(slots=True)
class DocTexts:
    """A document's original texts as :func:`words`, its pairs' one after the other: what is recognized (the
    source, its metadata and inline code), and the source and the target alone (where forms are looked for)."""

    recognized: str
    src: str
    tgt: str

    @classmethod
    def of(cls, pairs: list[Any]) -> DocTexts:
        src = "".join(words(p.src) for p in pairs)
        rest = "".join(words(" ".join((repr(p.meta), repr(p.src_inline), repr(p.tgt_inline)))) for p in pairs)
        return cls(src + rest, src, "".join(words(p.tgt) for p in pairs))


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
            with paused_gc():
                rec = _recompute(work, cfg, reach, everything, quiet)
            return publish(outdir, work, rec, cfg, cfg["anonymize"]["scope"], umask, quiet, {"applied": rec.applied},
                           incremental=True)
        finally:
            os.umask(umask)


@dataclass
class ApplyRecord(RunRecord):
    applied: dict[str, int] = field(default_factory=dict)


def _recompute(work: WorkDir, cfg: dict[str, Any], reach: Reach, everything: bool, quiet: bool) -> ApplyRecord:
    settings = Settings.of(cfg)
    an = Anonymizer(cfg)
    counts = ReadCounts(**work.done("anonymize"))
    sizes = work.done("consistency")["sizes"]
    rec = ApplyRecord(counts, Stats(), 0, work.done("align")["aligner"], 1, False, {})
    chunks = range(counts.chunks)
    with rec.timed("read_anonymize"):
        recognized, texts = _recognize_again(work, an, chunks, reach, everything)
    with rec.timed("consistency"):
        forms, changed = _corpus_forms(work, an, chunks, set(recognized), settings.anonymize.corpus_consistency)
        # the target side reads the allow list too (an allowed form stays visible there): a pair whose target
        # holds a decision's string is transferred again, not recognized again
        redo = _union(recognized, _holding(texts, changed, "src"), _holding(texts, reach.keys(), "tgt"))
    with rec.timed("transfer"):
        fin = Finisher(an, settings.src, settings.tgt)
        fin.forms = forms
        steps = ChunkSteps(work, an, fin, (settings.src, settings.tgt))
        with ChunkPool(steps, min(len(redo), settings.workers or os.cpu_count() or 1)) as pool:
            found = pool.run("transfer", redo)
            rec.consistency_masks = sum(work.read_json(WorkDir.chunk("cons", k, "json"))["added"] for k in chunks)
            work.mark_done("consistency", {"added": rec.consistency_masks, "sizes": sizes})
            rewrite = _union(redo, _new_targets(work, texts, forms is not None, redo, found))
            pool.send_targets(work.load("targets.pkl"))
            rows = pool.run("write", rewrite)
        keys = KeyStore(work / "keys.sqlite")
        try:
            for k, (new_rows, units) in sorted(rows.items()):
                keys.replace_units(k, new_rows, units)
        finally:
            keys.close()
        KeyStore.in_chunk_order(work / "keys.sqlite")
        rec.stats = Stats.merged([work.read_json(WorkDir.chunk("out", k, "json"))["stats"] for k in chunks])
    rec.applied = {"documents_recognized": sum(map(len, recognized.values())),
                   "documents_transferred": sum(map(len, redo.values())),
                   "documents_written": sum(map(len, rewrite.values())), "documents": sum(map(len, texts.values())),
                   "chunks_written": len(rewrite), "chunks": counts.chunks}
    return rec


Positions = dict[int, set[int]]  # chunk -> positions of its documents


def _union(*parts: Positions) -> Positions:
    out: Positions = {}
    for part in parts:
        for k, docs in part.items():
            if docs:
                out.setdefault(k, set()).update(docs)
    return out


def _recognize_again(work: WorkDir, an: Anonymizer, chunks: Iterable[int], reach: Reach, everything: bool
                     ) -> tuple[Positions, dict[int, list[DocTexts]]]:
    """Recognize again the documents the decisions reach, chunk by chunk (``anon-K``, ``forms-K``); returns
    them, and every document's pairs' texts (to look for forms in)."""
    recognized: Positions = {}
    texts: dict[int, list[DocTexts]] = {}
    for k in chunks:
        by_doc = by_document(work.load(WorkDir.chunk("anon", k)).items)
        texts[k] = [DocTexts.of([it.pair for it in d]) for d in by_doc]
        hit = {j for j, d in enumerate(by_doc)
               if everything or reach.touches(d[0].pair.doc, texts[k][j])}
        if not hit:
            continue
        new_items = [it for j, d in enumerate(by_doc)
                     for it in (anonymize_docs(an, [[x.pair for x in d]]) if j in hit else d)]
        work.dump(WorkDir.chunk("forms", k), corpus_forms(an, [new_items]).state())
        work.dump(WorkDir.chunk("anon", k), AnonChunk(new_items, None))
        recognized[k] = hit
    return recognized, texts


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


def _new_targets(work: WorkDir, texts: dict[int, list[DocTexts]], enabled: bool, redo: Positions,
                 found: dict[int, list]) -> Positions:
    """The corpus's target forms again (``targets.pkl``; ``found``: the target forms of the chunks transferred
    again, by document); the documents (besides ``redo``) where pass 2 finds one that came, went or changed
    kind, or one whose source forms changed where the document's source holds one of those (a document's
    occurrence takes the number of its entity with one of those source forms)."""
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
    return _found_by_pass2(work, old, new, changed, _holding(texts, changed, "tgt", sources), redo)


def _found_by_pass2(work: WorkDir, old: TargetForms, new: TargetForms, changed: set[str], candidates: Positions,
                    redo: Positions) -> Positions:
    """Of the ``candidates`` (their target text holds a changed form), those where pass 2 finds a changed form,
    with the corpus's old target forms or the new ones, beside the pairs' mentions (a form inside a mention,
    or in none of the forms' hits, changes nothing there)."""
    out: Positions = {}
    for k, docs in candidates.items():
        docs = docs - redo.get(k, set())
        if not docs:
            continue
        items = by_document(consistent_items(work, k))
        done = cut(work.load(WorkDir.chunk("tr", k)).done, items)
        out[k] = {j for j in docs if any(
            key in changed for it, (tr, _) in zip(items[j], done[j], strict=True) for t in (old, new)
            if t.forms is not None for _s, _e, key in t.forms.find(it.pair.tgt, tr.mentions))}
    return out
