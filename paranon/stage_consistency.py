"""Stage 2: corpus consistency on the source side (:mod:`paranon.anonymize.corpus`), and each chunk's alignment
input (its tokens, ``tok-K.src``/``tok-K.tgt``): the last stage that changes the source text. A chunk it adds
mentions to is saved as ``cons-K.pkl`` beside the recognizers' ``anon-K.pkl`` (kept for ``paranon apply``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tqdm import tqdm

from .anonymize.anonymized import Anonymized
from .anonymize.consistency import CorpusForms
from .anonymize.corpus import adopt_public, corpus_numbers, make_consistent
from .anonymize.engine import Anonymizer
from .anonymize.numbering import EntityNumbers
from .corpora.formats import atomic_write
from .parallel import Runner
from .stage_common import AnonymizerStage
from .text import token_words
from .workdir import WorkDir


class ConsistencyStage(AnonymizerStage):
    """A job is a chunk number; it returns ``(k, pairs, mentions added, public mentions found)`` (the last: the
    segments ``public_mentions`` recognized for this chunk, by text). Rerunning a job adds nothing.
    ``forms`` are the corpus's (None when corpus consistency is off); ``corpus`` the corpus-wide numbers
    (``corpus`` scope only, where the chunks run in order in one process)."""

    PROCESS_STATE = ("anonymizer", "forms")

    def __init__(self, cfg: dict[str, Any], work: WorkDir, anonymizer: Anonymizer | None = None,
                 forms: CorpusForms | None = None, corpus: EntityNumbers | None = None) -> None:
        super().__init__(cfg, work, anonymizer)
        self.forms, self.corpus = forms, corpus

    def setup(self, previous: Any | None = None) -> None:
        """A spawned worker's anonymizer and forms (a forked one has its parent's)."""
        super().setup(previous)
        if self.forms is None and self.work.has("forms.pkl"):
            self.forms = CorpusForms.from_state(self.work.load("forms.pkl"))

    def __call__(self, k: int) -> tuple[int, int, int, dict[str, list]]:
        assert self.anonymizer is not None
        chunk = self.work.load(WorkDir.chunk("anon", k))
        items, added = chunk.items, 0
        memo = self.anonymizer.public_memo
        known = set(memo)
        if self.forms is not None:
            items, added = make_consistent(items, self.forms, self.anonymizer, self.corpus)
        # the recognizers' result (anon-K) stays as it was: ``paranon apply`` starts again from it
        if added:
            chunk.items = items
            self.work.dump(WorkDir.chunk("cons", k), chunk)
        else:
            self.work.drop(WorkDir.chunk("cons", k))
        for side, texts in (("src", (it.replaced.text for it in items)), ("tgt", (it.pair.tgt for it in items))):
            with atomic_write(self.work / WorkDir.chunk("tok", k, side), perm=0o600) as fh:  # target's originals
                fh.writelines(" ".join(token_words(text)) + "\n" for text in texts)
        return k, len(items), added, {t: ms for t, ms in memo.items() if t not in known}


def chunk_items(work: WorkDir, n_chunks: int) -> Iterator[list[Anonymized]]:
    """The recognizers' result, chunk by chunk (before corpus consistency)."""
    for k in range(n_chunks):
        yield work.load(WorkDir.chunk("anon", k)).items


def consistent_items(work: WorkDir, k: int) -> list[Anonymized]:
    """Chunk ``k`` after corpus consistency (``cons-K.pkl`` when it added mentions, else ``anon-K.pkl``)."""
    name = WorkDir.chunk("cons", k)
    return work.load(name if work.has(name) else WorkDir.chunk("anon", k)).items


def run_consistency(cfg: dict[str, Any], enabled: bool, work: WorkDir, n_chunks: int, anonymizer: Anonymizer,
                    runner: Runner, quiet: bool) -> tuple[int, list[int], CorpusForms | None]:
    """Make every chunk consistent with the corpus's forms, in parallel unless numbering is corpus-wide.
    Returns how many mentions it added, the chunk sizes, and the forms (None when this stage was done
    before: a resumed run's later stages load them from ``forms.pkl``, never an earlier run's)."""
    done = work.done("consistency")
    if done is not None:
        return done["added"], done["sizes"], None
    forms = corpus = None
    if enabled:  # anonymize.corpus_consistency
        forms = CorpusForms(anonymizer._propagation_forms)
        for k in range(n_chunks):  # the forms each chunk found, saved by the anonymize stage
            forms.merge(work.load(WorkDir.chunk("forms", k)))
        work.dump("forms.pkl", forms.state())
        if anonymizer.scope == "corpus":
            corpus = corpus_numbers(chunk_items(work, n_chunks))
    sequential = anonymizer.scope == "corpus" or runner.workers <= 1
    jobs = [k for k in range(n_chunks) if not work.has(WorkDir.chunk("cons", k, "json"))]
    bar = tqdm(desc="consistency", unit=" chunks", total=n_chunks, initial=n_chunks - len(jobs), disable=quiet)
    stage = ConsistencyStage(cfg, work, anonymizer, forms, corpus)
    try:
        with runner.in_order(stage, jobs, 1 if sequential else None) as results:
            for k, size, added, public in results:
                adopt_public(anonymizer, public)  # (for the transfer stage's workers: forked after)
                work.write_json(WorkDir.chunk("cons", k, "json"), {"size": size, "added": added})
                bar.update(1)
    finally:
        bar.close()
    chunk_done = [work.read_json(WorkDir.chunk("cons", k, "json")) for k in range(n_chunks)]
    added, sizes = sum(d["added"] for d in chunk_done), [d["size"] for d in chunk_done]
    work.mark_done("consistency", {"added": added, "sizes": sizes})
    return added, sizes, forms
