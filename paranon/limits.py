"""A maximum segment length: a unit longer than ``input.max_segment_chars`` (either side) is split at
sentence boundaries into units within it (``input.long_segments: split``, the default) or skipped and
reported (``reject``). A segment of many megabytes then costs what as many ordinary units cost, never a hang.

A split unit becomes k consecutive units of its document, each side cut at the sentence boundary nearest to
1/k, 2/k ... of its length (so that each piece's translation is, as near as the text allows, in the same
piece on the other side), never inside an inline element that wraps text (``<hi>``, ``<g>``: the TMX stays
well-formed). The first piece keeps the unit's metadata; every piece says ``part: "j/k"`` in its meta.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import regex

from .corpora.formats.common import Problems
from .corpora.model import Inline, SegmentPair
from .errors import InputError
from .settings import Settings

LONG_SEGMENT_POLICIES = ("split", "reject")
# the end of a sentence: a full stop (not after a one- to three-letter abbreviation such as Dr., art., n.),
# question or exclamation mark, or a semicolon, then white space
SENTENCE_END = regex.compile(r"(?:(?<![\s.(][\p{L}]{1,3})[.!?]|;)[\"'”»)]*\s+")
SPACE = regex.compile(r"\s+")
FILL = 0.6  # pieces are planned at this share of the maximum, so that a boundary near the planned cut fits


@dataclass
class SegmentLimit:
    max_chars: int
    policy: str = "split"
    split_units: int = 0
    pieces: int = 0
    rejected: int = 0

    @classmethod
    def from_config(cls, cfg: Settings | dict) -> SegmentLimit:
        inp = Settings.of(cfg).input
        max_chars, policy = inp.max_segment_chars, inp.long_segments
        if policy not in LONG_SEGMENT_POLICIES:
            raise InputError(f"input.long_segments: {policy!r} is not one of {', '.join(LONG_SEGMENT_POLICIES)}")
        if max_chars is not None and (not isinstance(max_chars, int) or max_chars < 100):
            raise InputError(f"input.max_segment_chars: {max_chars!r} is not a number of characters (100 or more)")
        return cls(max_chars or 0, policy)

    def apply(self, pairs: Iterable[SegmentPair], problems: Problems) -> Iterator[SegmentPair]:
        for p in pairs:
            longest = max(len(p.src), len(p.tgt))
            if not self.max_chars or longest <= self.max_chars:
                yield p
                continue
            if self.policy == "reject":
                self.rejected += 1
                problems.report(p.origin or p.id, "segment too long",
                                f"{longest:,} characters; input.max_segment_chars is {self.max_chars:,}")
                continue
            parts = split_pair(p, self.max_chars)
            self.split_units += 1
            self.pieces += len(parts)
            yield from parts

    def counts(self) -> dict[str, int]:
        return {"max_segment_chars": self.max_chars, "split_units": self.split_units, "pieces": self.pieces,
                "rejected_units": self.rejected}


def _wrapped(inline: list[Inline]) -> list[tuple[int, int]]:
    """Spans of text inside inline elements that wrap it (an opening tag to its closing tag)."""
    spans, stack = [], []
    for m in sorted(inline, key=lambda i: i.offset):
        x = m.xml
        if x.startswith("</"):
            if stack:
                start = stack.pop()
                if not stack:
                    spans.append((start, m.offset))
        elif x.startswith("<") and not x.endswith("/>") and x.count("<") == 1:  # an opening tag alone
            stack.append(m.offset)
    if stack:
        spans.append((stack[0], 1 << 62))
    return spans


def cut_points(text: str, k: int, inline: list[Inline], max_chars: int,
               shares: list[float] | None = None) -> list[int]:
    """k - 1 offsets that cut ``text`` into k pieces: each at the sentence end nearest its planned place
    (``shares`` of the text, j/k by default) that keeps the piece within ``max_chars``, else at white space, else where planned; never
    inside an inline element that wraps text when avoidable. A side within ``max_chars`` is cut at sentence
    ends only (the rest of it goes whole into one piece, the next ones are empty)."""
    n = len(text)
    blocked = _wrapped(inline)

    def allowed(c: int) -> bool:
        return not any(a < c <= b for a, b in blocked)

    patterns = (SENTENCE_END, SPACE) if n > max_chars else (SENTENCE_END,)
    cuts: list[int] = []
    prev = 0
    for j in range(1, k):
        target = round((shares[j - 1] if shares else j / k) * n)
        best = None
        for pattern in patterns:
            ends = [m.end() for m in pattern.finditer(text, prev, min(n, prev + max_chars) + 1)
                    if prev < m.end() <= prev + max_chars and m.end() < n and allowed(m.end())]
            if ends:
                best = min(ends, key=lambda c: abs(c - target))
                break
        if best is None:
            best = n if n <= max_chars else min(n, max(prev + 1, min(target, prev + max_chars)))
        cuts.append(best)
        prev = best
    return cuts


def _inline_part(inline: list[Inline], a: int, b: int, last: bool) -> list[Inline]:
    return [Inline(i.offset - a, i.xml) for i in inline if a <= i.offset < b or (last and i.offset == b)]


def split_pair(p: SegmentPair, max_chars: int) -> list[SegmentPair]:
    """The pair as k pairs within ``max_chars`` a side (see the module's note)."""
    longest = max(len(p.src), len(p.tgt))
    k = max(2, math.ceil(longest / (FILL * max_chars)))
    sides = {}
    shares = None  # the target is cut where the source was, in proportion (so that a piece's translation
    for side, text, inline in (("src", p.src, p.src_inline), ("tgt", p.tgt, p.tgt_inline)):  # is beside it)
        cuts = cut_points(text, k, inline, max_chars, shares)
        shares = [c / max(1, len(text)) for c in cuts]
        bounds = [0, *cuts, len(text)]
        sides[side] = [(text[a:b], _inline_part(inline, a, b, j == k - 1))
                       for j, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False))]
    out = []
    for j in range(k):
        (src, src_inline), (tgt, tgt_inline) = sides["src"][j], sides["tgt"][j]
        meta = dict(p.meta) if j == 0 else {k2: v for k2, v in p.meta.items() if k2 == "langs"}
        meta["part"] = f"{j + 1}/{k}"
        out.append(SegmentPair(id=f"{p.id}#{j + 1}", doc=p.doc, src=src, tgt=tgt, src_lang=p.src_lang,
                               tgt_lang=p.tgt_lang, meta=meta, src_inline=src_inline, tgt_inline=tgt_inline,
                               origin=p.origin))
    return out
