"""What a review's decisions reach (:mod:`paranon.apply`): the strings and documents whose change they are,
each document's texts to look for them in, and a chunk's documents they reach recognized again."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .anonymize.anonymized import anonymize_docs
from .anonymize.consistency import form_key
from .anonymize.corpus import corpus_forms
from .anonymize.engine import Anonymizer
from .apply_chunk import by_document
from .stage_anonymize import AnonChunk
from .workdir import WorkDir


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


def recognize_again(work: WorkDir, an: Anonymizer, k: int, reach: Reach, everything: bool
                    ) -> tuple[set[int], list[DocTexts]]:
    """Chunk ``k``'s documents the decisions reach (every one with ``everything``) recognized again
    (``anon-K``, ``forms-K``); returns their positions, and every document's texts (to look for forms in)."""
    by_doc = by_document(work.load(WorkDir.chunk("anon", k)).items)
    texts = [DocTexts.of([it.pair for it in d]) for d in by_doc]
    hit = {j for j, d in enumerate(by_doc) if everything or reach.touches(d[0].pair.doc, texts[j])}
    if hit:
        new_items = [it for j, d in enumerate(by_doc)
                     for it in (anonymize_docs(an, [[x.pair for x in d]]) if j in hit else d)]
        work.dump(WorkDir.chunk("forms", k), corpus_forms(an, [new_items]).state())
        work.dump(WorkDir.chunk("anon", k), AnonChunk(new_items, None))
    return hit, texts
