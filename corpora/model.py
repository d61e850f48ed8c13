"""The data model every stage shares: pure data, no I/O.

A stage reads :class:`SegmentPair` objects, finds :class:`Mention` objects, and
produces :class:`AnonymizedPair` objects. Inline markup from TMX (``<bpt>``,
``<ph>``, ``<hi>`` ...) travels beside the plain text as :class:`Inline` markers
at character offsets, so recognizers only ever see text and a placeholder can
never split a tag: when text is replaced, markers inside the replaced span move
to its end (see :func:`remap_offset`).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any, TypeVar

T = TypeVar("T")


def pickled_by_constructor(cls: type[T]) -> type[T]:
    """Pickle instances as a call of the class on their fields. A run's checkpoints and its worker pool
    pickle hundreds of thousands of pairs and mentions; a slotted dataclass otherwise goes through a
    state dict per instance, which makes dumping and loading a chunk about half as fast again."""
    get = operator.attrgetter(*(f.name for f in fields(cls)))  # type: ignore[arg-type]

    def __reduce__(self: T) -> tuple:
        return cls, get(self)

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


@pickled_by_constructor
@dataclass(frozen=True, slots=True)
class Inline:
    """A piece of raw inline XML (one tag, or one opening/closing half of ``<hi>``) at a text offset."""

    offset: int
    xml: str


@pickled_by_constructor
@dataclass(slots=True)
class SegmentPair:
    """One translation unit reduced to the two languages asked for."""

    id: str
    doc: str
    src: str
    tgt: str
    src_lang: str = "pt"
    tgt_lang: str = "en"
    meta: dict[str, Any] = field(default_factory=dict)
    src_inline: list[Inline] = field(default_factory=list)
    tgt_inline: list[Inline] = field(default_factory=list)
    origin: str = ""  # "file:line" for messages
    source_ids: tuple[str, str] = ("", "")  # (unit id, document id) as read, when the public ones are opaque


@pickled_by_constructor
@dataclass(slots=True)
class Mention:
    """An anonymisation-candidate named entity (ACNE) found in one side of a pair.

    ``recognizer`` and ``rule`` say why it fired, for the audit report. ``entity``
    is the number shared by every mention of the same real-world entity within
    the numbering scope (0 until numbering has run).
    """

    start: int
    end: int
    category: str
    text: str
    recognizer: str
    rule: str = ""
    subtype: str = ""
    score: float = 1.0
    entity: int = 0

    @property
    def label(self) -> str:
        return f"{self.category}_{self.subtype}" if self.subtype else self.category

    def overlaps(self, other: Mention) -> bool:
        return self.start < other.end and other.start < self.end

    def public_dict(self) -> dict[str, Any]:
        """The mention without its original text: what may be published."""
        d = {"start": self.start, "end": self.end, "category": self.category, "entity": self.entity,
             "recognizer": self.recognizer, "rule": self.rule}
        if self.subtype:
            d["subtype"] = self.subtype
        return d


@pickled_by_constructor
@dataclass(slots=True)
class AnonymizedPair:
    """Both sides after anonymization; offsets in mentions refer to the anonymized text."""

    id: str
    doc: str
    src: str
    tgt: str
    src_lang: str
    tgt_lang: str
    meta: dict[str, Any] = field(default_factory=dict)
    src_mentions: list[Mention] = field(default_factory=list)
    tgt_mentions: list[Mention] = field(default_factory=list)
    alignment: list[tuple[int, int]] = field(default_factory=list)
    src_inline: list[Inline] = field(default_factory=list)
    tgt_inline: list[Inline] = field(default_factory=list)

    def to_record(self) -> dict[str, Any]:
        """The public JSONL record (see docs/formats.md): never any original string."""
        rec: dict[str, Any] = {
            "id": self.id, "doc": self.doc, "src_lang": self.src_lang, "tgt_lang": self.tgt_lang,
            "src": self.src, "tgt": self.tgt, "meta": self.meta,
            "src_mentions": [m.public_dict() for m in self.src_mentions],
            "tgt_mentions": [m.public_dict() for m in self.tgt_mentions],
            "alignment": pharaoh(self.alignment),
        }
        if self.src_inline or self.tgt_inline:
            rec["src_inline"] = [[i.offset, i.xml] for i in self.src_inline]
            rec["tgt_inline"] = [[i.offset, i.xml] for i in self.tgt_inline]
        return rec

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> AnonymizedPair:
        def mentions(side: str, text: str) -> list[Mention]:
            out = []
            for m in rec.get(f"{side}_mentions", []):
                out.append(Mention(start=m["start"], end=m["end"], category=m["category"],
                                   text=text[m["start"]:m["end"]], recognizer=m.get("recognizer", ""),
                                   rule=m.get("rule", ""), subtype=m.get("subtype", ""),
                                   entity=m.get("entity", 0)))
            return out

        return cls(
            id=rec["id"], doc=rec.get("doc", ""), src=rec["src"], tgt=rec["tgt"],
            src_lang=rec.get("src_lang", "pt"), tgt_lang=rec.get("tgt_lang", "en"), meta=rec.get("meta", {}),
            src_mentions=mentions("src", rec["src"]), tgt_mentions=mentions("tgt", rec["tgt"]),
            alignment=parse_pharaoh(rec.get("alignment", "")),
            src_inline=[Inline(o, x) for o, x in rec.get("src_inline", [])],
            tgt_inline=[Inline(o, x) for o, x in rec.get("tgt_inline", [])],
        )

    def as_segment_pair(self) -> SegmentPair:
        return SegmentPair(id=self.id, doc=self.doc, src=self.src, tgt=self.tgt, src_lang=self.src_lang,
                           tgt_lang=self.tgt_lang, meta=self.meta, src_inline=self.src_inline,
                           tgt_inline=self.tgt_inline)


PHARAOH_LINK = re.compile(r"(\d+)(?:-p?|p)(\d+)")


def pharaoh(links: list[tuple[int, int]]) -> str:
    """Links as Pharaoh text: ``i-j`` pairs, 0-based, sorted, space-separated."""
    return " ".join([f"{i}-{j}" for i, j in sorted(set(links))])


def parse_pharaoh(text: str) -> list[tuple[int, int]]:
    """``i-j`` (sure) and ``i-j`` / ``ipj`` (possible) links; text that is not a link raises ValueError."""
    items = text.split()
    if "p" not in text and "+" not in text and "_" not in text:  # sure links only (eflomal's, ours): a split is
        # three times faster than the pattern ("+" and "_" would pass int() and not the pattern)
        try:
            return [(int(a), int(b)) for a, b in (item.split("-") for item in items)]
        except ValueError:
            pass  # not two numbers somewhere: the item by item parse below names it
    links = [(int(a), int(b)) for a, b in PHARAOH_LINK.findall(text)]
    if len(links) != len(items):  # something that is not a link: parse item by item for the error
        links = []
        for item in items:
            a, _, b = item.replace("p", "-").partition("-")
            links.append((int(a), int(b.lstrip("-"))))
    return links


def remap_offset(offset: int, replacements: list[tuple[int, int, int]]) -> int:
    """Map an offset in the original text to the edited text.

    ``replacements`` are ``(start, end, new_length)`` in original coordinates,
    sorted and non-overlapping. An offset strictly inside a replaced span goes to
    the end of its replacement, so a tag is never split by a placeholder.
    """
    shift = 0
    for start, end, new_len in replacements:
        if offset <= start:
            break
        if offset < end:
            return start + shift + new_len
        shift += new_len - (end - start)
    return offset + shift


def remap_offsets(offsets: Iterable[int], replacements: list[tuple[int, int, int]]) -> list[int]:
    """``remap_offset`` of each of ``offsets``, given in text order, in one sweep over the replacements
    (remapping each offset on its own walks the replacements again for every one: a pair's tokens)."""
    out = []
    r, shift, n_reps = 0, 0, len(replacements)
    for offset in offsets:
        while r < n_reps and replacements[r][0] < offset and replacements[r][1] <= offset:
            start, end, new_len = replacements[r]
            shift += new_len - (end - start)
            r += 1
        if r < n_reps and replacements[r][0] < offset < replacements[r][1]:
            out.append(replacements[r][0] + shift + replacements[r][2])
        else:
            out.append(offset + shift)
    return out


def to_plain_dict(obj: Any) -> dict[str, Any]:
    return asdict(obj)
