"""Stage 1: read the corpus, cut it into chunks of whole documents, anonymize the source side chunk by chunk.

Each chunk is checkpointed as ``anon-K.pkl`` (an :class:`AnonChunk`; the file marks the chunk done) with the
entity forms its documents found (``forms-K.pkl``, for corpus consistency).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .anonymize.anonymized import Anonymized, anonymize_docs
from .anonymize.corpus import corpus_forms
from .anonymize.engine import Anonymizer
from .anonymize.numbering import Numberer
from .corpora.formats import Problems, read_corpus
from .corpora.model import SegmentPair
from .limits import SegmentLimit
from .parallel import Runner
from .privacy import InputPlaceholders, MetadataPolicy, OpaqueIds
from .settings import Settings
from .stage_common import AnonymizerStage, chunks, documents
from .workdir import WorkDir


@dataclass
class AnonChunk:
    """One anonymized chunk as checkpointed; ``numberer`` for ``corpus`` scope, where numbering continues from
    chunk to chunk (a resumed run starts from the last saved one)."""

    items: list[Anonymized]
    numberer: Numberer | None = None


@dataclass
class ReadCounts:
    """What the reader skipped and why, and what it found on the way (``anonymize.done``)."""

    chunks: int
    skipped: int
    reasons: dict[str, int]
    examples: list[str]
    input_placeholders: dict[str, int] = field(default_factory=dict)
    long_segments: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # private (paths): for the key store, never the report


class AnonymizeStage(AnonymizerStage):
    """A job is one chunk ``(k, documents)``; it returns ``(k, pairs)``. The worker saves the chunk itself:
    sending it back to the parent would pickle it twice more."""

    def __call__(self, job: tuple[int, list[list[SegmentPair]]]) -> tuple[int, int]:
        k, docs = job
        an = self.anonymizer
        assert an is not None
        out = anonymize_docs(an, docs)
        self.work.dump(WorkDir.chunk("forms", k), corpus_forms(an, [out]).state())
        # last: anon-K.pkl marks the chunk done
        self.work.dump(WorkDir.chunk("anon", k), AnonChunk(out, an.numberer if an.scope == "corpus" else None))
        return k, len(out)


def run_anonymize(input_path: str | Path, cfg: dict[str, Any], settings: Settings, work: WorkDir,
                  anonymizer: Anonymizer, runner: Runner, quiet: bool) -> ReadCounts:
    """Anonymize chunk by chunk (in parallel unless numbering is corpus-wide); returns the reader's counts."""
    done = work.done("anonymize")
    if done is not None:
        return ReadCounts(**done)
    inp = settings.input
    problems = Problems(strict=inp.strict)
    escaper = InputPlaceholders.from_config(cfg)
    limit = SegmentLimit.from_config(cfg)
    pairs_iter = escaper.apply(OpaqueIds(MetadataPolicy.from_config(cfg).ids).apply(limit.apply(read_corpus(
        input_path, settings.src, settings.tgt, problems, inp.format, inp.src_col, inp.tgt_col, inp.document_pairs),
        problems)))
    size = settings.chunk_size
    bar = tqdm(desc="anonymize", unit=" pairs", disable=quiet, mininterval=0.5)
    corpus_scope = anonymizer.scope == "corpus"
    n_chunks = 0
    if corpus_scope:  # a resumed corpus-scope run continues the numbering where the last saved chunk left it
        saved = sorted(work.path.glob("anon-*.pkl"))
        if saved:
            numberer = work.load(saved[-1].name).numberer
            numberer.constraints = anonymizer.numberer.constraints  # the same settings (the checkpoint's fingerprint)
            anonymizer.numberer = numberer

    def todo() -> Iterator[tuple[int, list[list[SegmentPair]]]]:
        nonlocal n_chunks
        for k, batch in chunks(documents(pairs_iter), size):
            n_chunks = k + 1
            if work.has(WorkDir.chunk("anon", k)):
                bar.update(sum(len(d) for d in batch))
                continue
            yield k, batch

    try:
        with runner.in_order(AnonymizeStage(cfg, work, anonymizer), todo(), 1 if corpus_scope else None) as results:
            for _k, n in results:
                bar.update(n)
    finally:
        bar.close()
    counts = ReadCounts(n_chunks, problems.skipped, dict(problems.reasons), problems.examples, escaper.counts(),
                        limit.counts(), problems.files)
    work.mark_done("anonymize", vars(counts))
    return counts
