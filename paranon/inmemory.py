"""The whole anonymize -> consistency -> align -> transfer chain on a small list of pairs, in memory (for
evaluation and tests): the same steps as the resumable run's stages, without checkpoints or workers."""

from __future__ import annotations

from typing import Any

from .align.aligners import make_aligner
from .align.finish import Finisher, PairResult
from .anonymize.anonymized import Anonymized, anonymize_docs
from .anonymize.corpus import corpus_forms, corpus_numbers, make_consistent
from .anonymize.engine import Anonymizer
from .corpora.model import SegmentPair
from .settings import Settings
from .stage_common import chunks, documents
from .text import token_words


def process_in_memory(pairs: list[SegmentPair], cfg: dict[str, Any]) -> list[PairResult]:
    """Every pair finished, in order."""
    anonymizer = Anonymizer(cfg)
    items: list[Anonymized] = []
    for _, batch in chunks(documents(pairs), 10**9):
        items += anonymize_docs(anonymizer, batch)
    forms = None
    if Settings.of(cfg).anonymize.corpus_consistency:
        forms = corpus_forms(anonymizer, [items])
        corpus = corpus_numbers([items]) if anonymizer.scope == "corpus" else None
        items, _ = make_consistent(items, forms, anonymizer, corpus)
    aligner, _ = make_aligner(cfg)
    links = aligner.align([(token_words(it.replaced.text), token_words(it.pair.tgt)) for it in items])
    finisher = Finisher(anonymizer, cfg["src"], cfg["tgt"])
    finisher.forms = forms
    return list(finisher.finish_chunk(items, links))
