"""The anonymize step's result for one pair, and how a chunk of whole documents gets it.

An :class:`Anonymized` is what the anonymize stage checkpoints and every later stage reads: the pair as read,
its source mentions (original coordinates, private), the replaced source, and the first free entity number
after its document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..corpora.model import Mention, SegmentPair, pickled_by_constructor
from ..privacy import MetadataPolicy, prepare_metadata

if TYPE_CHECKING:
    from .engine import Anonymizer, Replaced


@pickled_by_constructor  # (checkpointed by the hundred thousand: no state dict per pair)
@dataclass(slots=True)
class Anonymized:
    """One pair after the source side is anonymized."""

    pair: SegmentPair
    mentions: list[Mention]  # source mentions, original coordinates
    replaced: Replaced  # the source with its placeholders
    next_free: int  # the first entity number free after the pair's document


def anonymize_docs(anonymizer: Anonymizer, docs: list[list[SegmentPair]]) -> list[Anonymized]:
    """Each document's pairs anonymized, with their metadata and inline code (``paranon.privacy``): those
    texts go through the anonymizer as extra segments after the document's own, so that a name in a note
    takes the number it has in the text."""
    policy = MetadataPolicy.from_config(anonymizer.cfg)
    out: list[Anonymized] = []
    for pairs in docs:
        preps = [prepare_metadata(p, policy) for p in pairs]
        extra = [SegmentPair(id=p.id, doc=p.doc, src=t, tgt="", src_lang=p.src_lang, tgt_lang=p.tgt_lang)
                 for p, prep in zip(pairs, preps, strict=True) for t in prep.texts]
        res = anonymizer.anonymize_document(pairs + extra)
        rest = iter(res[len(pairs):])
        for prep in preps:
            prep.fill([next(rest)[1].text for _ in prep.texts])
        nxt = anonymizer.numberer.next
        out += [Anonymized(p, ms, rep, nxt) for p, (ms, rep) in zip(pairs, res[:len(pairs)], strict=True)]
    return out
