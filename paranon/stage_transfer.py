"""Stage 4: transfer to the target side and writing, in two passes over the chunks (:mod:`paranon.align.finish`).

Pass 1 (:class:`TransferStage`) transfers each chunk's mentions and collects its target forms (``tr-K.pkl``, a
:class:`TransferredChunk`, marks it done); between the passes the corpus's target forms are made from them
(``targets.pkl``); pass 2 (:class:`WriteStage`) masks those where they still show and writes the chunk's part
files, whose key-store rows the parent commits with the chunk (``out-K.json`` marks it done). Chunks run in
parallel unless numbering is corpus-wide (then new numbers continue one count, chunk after chunk). A document
never spans chunks, so with ``document`` or ``segment`` scope the output is the same for any ``--workers``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from .align.aligners import Links, symmetrize_lines
from .align.finish import Finisher, TargetForms, TargetFound, target_forms_of
from .align.transfer import TransferResult
from .anonymize.consistency import CorpusForms
from .anonymize.engine import Anonymizer
from .anonymize.keystore import KeyStore
from .corpora.model import parse_pharaoh
from .outputs import PartWriters
from .parallel import Runner
from .stage_common import AnonymizerStage
from .stage_consistency import consistent_items
from .stats import Stats
from .workdir import WorkDir

LinkLines = list[str] | list[tuple[str, str]]  # a chunk's Pharaoh lines, or its (forward, reverse) lines


@dataclass
class TransferJob:
    """Pass 1 of one chunk: its alignment lines, how to symmetrize them, the numbering carried in."""

    k: int
    lines: LinkLines
    how: str | None
    next_by_scope: dict[str, int]
    links: list[Links] | None = None  # given (``paranon apply``: the checkpoint's, fitted to new tokens)


@dataclass
class TransferredChunk:
    """Pass 1's result for one chunk (``tr-K.pkl``)."""

    done: list[tuple[TransferResult, str]]
    links: list[Links]
    found: list[TargetFound]  # one per document, in order
    next_by_scope: dict[str, int]


@dataclass
class WrittenChunk:
    """Pass 2's result for one chunk, for the parent to commit."""

    k: int
    pairs: int
    rows: list[tuple]
    stats: dict
    next_by_scope: dict[str, int]
    id_rows: list[tuple]
    doc_stats: list[dict]


def chunk_links(work: WorkDir, k: int, lines: LinkLines, how: str | None) -> list[Links]:
    """A chunk's links: its Pharaoh lines, or (``how`` given) its forward and reverse lines symmetrized,
    with the sentence lengths from the chunk's alignment tokens."""
    if how is None:
        return [sorted(set(parse_pharaoh(line))) for line in lines]  # type: ignore[arg-type]
    with open(work / WorkDir.chunk("tok", k, "src"), encoding="utf-8") as fs, \
            open(work / WorkDir.chunk("tok", k, "tgt"), encoding="utf-8") as ft:
        return [symmetrize_lines(len(s.split()), len(t.split()), f, r, how)
                for s, t, (f, r) in zip(fs, ft, lines, strict=True)]


class TransferStage(AnonymizerStage):
    """Pass 1; its finisher holds the corpus forms (the consistency stage's, or ``forms.pkl``)."""

    PROCESS_STATE = ("anonymizer", "forms", "finisher")

    def __init__(self, cfg: dict[str, Any], work: WorkDir, anonymizer: Anonymizer | None = None,
                 forms: CorpusForms | None = None, finisher: Finisher | None = None) -> None:
        super().__init__(cfg, work, anonymizer)
        self.forms, self.finisher = forms, finisher

    def setup(self, previous: Any | None = None) -> None:
        super().setup(previous)
        if self.finisher is None:
            assert self.anonymizer is not None
            self.finisher = Finisher(self.anonymizer, self.cfg["src"], self.cfg["tgt"])
            if self.forms is not None:
                self.finisher.forms = self.forms
            elif self.work.has("forms.pkl"):
                self.finisher.forms = CorpusForms.from_state(self.work.load("forms.pkl"))

    def __call__(self, job: TransferJob) -> tuple[int, int, list[TargetFound], dict[str, int]]:
        """Saves the chunk's results to ``tr-K.pkl``; returns its target forms and numbering state."""
        fin = self.finisher
        assert fin is not None
        fin.next_by_scope = dict(job.next_by_scope)
        items = consistent_items(self.work, job.k)
        links = job.links if job.links is not None else chunk_links(self.work, job.k, job.lines, job.how)
        done, found = fin.transfer_chunk(items, links)
        self.work.dump(WorkDir.chunk("tr", job.k), TransferredChunk(done, links, found, fin.next_by_scope))
        return job.k, len(items), found, fin.next_by_scope


class WriteStage(TransferStage):
    """Pass 2: a job is ``(k, numbering carried in or None)``; returns a :class:`WrittenChunk`."""

    PROCESS_STATE = ("anonymizer", "forms", "finisher", "targets")

    def __init__(self, cfg: dict[str, Any], work: WorkDir, anonymizer: Anonymizer | None = None,
                 finisher: Finisher | None = None) -> None:
        super().__init__(cfg, work, anonymizer, None, finisher)
        self.targets: TargetForms | None = None

    def setup(self, previous: Any | None = None) -> None:
        super().setup(previous)
        if self.targets is None:
            self.targets = self.work.load("targets.pkl")

    def __call__(self, job: tuple[int, dict[str, int] | None]) -> WrittenChunk:  # type: ignore[override]
        k, carried = job
        fin = self.finisher
        assert fin is not None and self.targets is not None
        saved: TransferredChunk = self.work.load(WorkDir.chunk("tr", k))
        fin.next_by_scope = dict(saved.next_by_scope if carried is None else carried)
        items = consistent_items(self.work, k)
        writers = PartWriters(self.work.path, k, self.cfg["src"], self.cfg["tgt"])
        doc_stats: list[Stats] = []  # per document, for ``paranon apply`` to replace one
        rows: list[tuple] = []
        n = 0
        doc = None
        for r in fin.finish_transferred(items, saved.links, saved.done, self.targets):
            writers.write(r.anonymized)
            rows += KeyStore.rows(r.anonymized, r.scope_key, k)
            n += 1
            if r.anonymized.doc != doc or not doc_stats:
                doc_stats.append(Stats())
                doc = r.anonymized.doc
            doc_stats[-1].add(r)
        writers.commit()
        per_doc = [st.to_json() for st in doc_stats]
        return WrittenChunk(k, n, rows, Stats.merged(per_doc).to_json(), fin.next_by_scope,
                            KeyStore.id_rows([it.pair for it in items], k), per_doc)


def _pass1(stage: TransferStage, sizes: list[int], how: str | None, sequential: bool, runner: Runner,
           quiet: bool) -> tuple[list[TargetFound], dict[str, int]]:
    """Pass 1 over the chunks not done yet; returns every chunk's target forms and the numbering after it."""
    work = stage.work
    founds: list[TargetFound] = []
    carried: dict[str, int] = {}
    bar = tqdm(desc="transfer", unit=" pairs", disable=quiet, mininterval=0.5)
    with ExitStack() as files:
        if how:
            fwd, rev = (files.enter_context(open(work / f"links.{d}", encoding="utf-8")) for d in ("fwd", "rev"))
        else:
            fl = files.enter_context(open(work / "links.pharaoh", encoding="utf-8"))

        def jobs() -> Iterator[TransferJob]:
            nonlocal carried
            for k, n in enumerate(sizes):
                lines: LinkLines = [(fwd.readline(), rev.readline()) for _ in range(n)] if how \
                    else [fl.readline() for _ in range(n)]
                if work.has(WorkDir.chunk("tr", k)):  # resumed: pass 1 of this chunk is done
                    saved: TransferredChunk = work.load(WorkDir.chunk("tr", k))
                    founds.extend(saved.found)
                    carried = saved.next_by_scope
                    bar.update(n)
                    continue
                yield TransferJob(k, lines, how, carried if sequential else {})

        with runner.in_order(stage, jobs()) as results:
            for _k, n_pairs, found, next_by_scope in results:
                founds.extend(found)
                if sequential:
                    carried = next_by_scope
                bar.update(n_pairs)
    bar.close()
    return founds, carried


def _pass2(stage: WriteStage, sizes: list[int], corpus_scope: bool, runner: Runner, carried: dict[str, int],
           quiet: bool) -> Stats:
    """Pass 2 over the chunks not written yet, each committed to the key store as it comes back."""
    work = stage.work
    stats = Stats()
    keys = KeyStore(work / "keys.sqlite")
    bar = tqdm(desc="write", unit=" pairs", disable=quiet, mininterval=0.5)
    try:
        def jobs() -> Iterator[tuple[int, dict[str, int] | None]]:
            nonlocal carried
            for k, n in enumerate(sizes):
                if work.has(WorkDir.chunk("out", k, "json")):
                    saved = work.read_json(WorkDir.chunk("out", k, "json"))
                    stats.merge(saved["stats"])
                    carried = saved["next_by_scope"]
                    bar.update(n)
                    continue
                yield k, carried if corpus_scope else None

        with runner.in_order(stage, jobs()) as results:
            for w in results:
                keys.begin_chunk(w.k)
                keys.add_rows(w.rows)
                keys.add_id_rows(w.id_rows)
                keys.commit()
                if corpus_scope:
                    carried = w.next_by_scope
                work.write_json(WorkDir.chunk("out", w.k, "json"),
                                {"stats": w.stats, "next_by_scope": w.next_by_scope, "doc_stats": w.doc_stats})
                stats.merge(w.stats)
                bar.update(w.pairs)
    finally:
        keys.close()
        bar.close()
    return stats


def run_transfer(cfg: dict[str, Any], work: WorkDir, sizes: list[int], anonymizer: Anonymizer,
                 forms: CorpusForms | None, runner: Runner, quiet: bool, how: str | None = None) -> Stats:
    """Both passes; returns the counts for the report. ``forms``: the consistency stage's, if it ran now."""
    # The finisher and its corpus forms are set up here, once, before the pool forks: its workers share their
    # pages instead of each loading a copy of the forms. Frozen, so that no worker's garbage collector writes
    # to (and so copies) those pages.
    first = TransferStage(cfg, work, anonymizer, forms)
    first.setup(None)
    gc.freeze()
    sequential = anonymizer.scope == "corpus" or runner.workers <= 1
    if sequential:
        runner = Runner(1, runner.client)
    founds, carried = _pass1(first, sizes, how, sequential, runner, quiet)
    # the corpus's target forms: made and dropped here, not kept for the pass-2 workers to share (kept, they
    # stayed in the parent through the index stage, which then weighed more than the workers' own copies had)
    work.dump("targets.pkl", target_forms_of(founds) if work.has("forms.pkl") else TargetForms())
    founds.clear()
    second = WriteStage(cfg, work, anonymizer, first.finisher)
    return _pass2(second, sizes, anonymizer.scope == "corpus", runner, carried, quiet)
