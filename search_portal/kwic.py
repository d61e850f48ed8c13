"""The concordance (KWIC): one line per hit, the hit centred between its left and right context.

Contexts are cut at token boundaries (``paranon.text.tokenize``: a placeholder is one token, so it is never
cut into pieces); the translation column is the hit's aligned span on the other side, or "not aligned".
Sorting by the left context reads its words from the hit outwards (the nearest word first), by the right
context from the hit on, both folded (case and accents ignored).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..text import fold, tokenize

CONTEXT_CHARS = 60  # context kept on each side of the hit, at most (whole tokens)
SORT_LIMIT = 500  # hits a sorted concordance orders (the first ones in corpus order)
NOT_ALIGNED = "not aligned"
SORT_KEYS = ("corpus", "left", "right")


@dataclass
class Line:
    id: str
    left: str
    kw: str
    right: str
    translation: str  # the aligned span on the other side ("" when nothing is aligned)
    cut_left: bool  # context left out before ``left`` / after ``right``
    cut_right: bool


def keyword_span(spans: list[list[int]], text: str) -> tuple[int, int]:
    """The first run of highlighted spans (spans separated only by white space or one short token make
    one run: a phrase's words)."""
    s, e = spans[0]
    for a, b in spans[1:]:
        gap = text[e:a]
        if len(gap.strip()) > 3 or len(gap) > 6:
            break
        e = b
    return s, e


def line_of(hit: dict[str, Any], width: int = CONTEXT_CHARS) -> Line | None:
    """A hit's concordance line, on the side its query matched (None for a hit with no highlight)."""
    side = "src" if hit["src_hl"] else "tgt" if hit["tgt_hl"] else None
    if side is None:
        return None
    text = hit[side]
    s, e = keyword_span(hit[f"{side}_hl"], text)
    toks = tokenize(text)
    first = next((a for a, _ in toks if a >= s - width), s)
    last = max((b for _, b in toks if e <= b <= e + width), default=e)
    other = "tgt" if side == "src" else "src"
    translation = hit.get("translation") or " ".join(hit[other][a:b] for a, b in hit[f"{other}_hl"])
    return Line(hit["id"], text[first:s], text[s:e], text[e:last], translation,
                first > 0, last < len(text.rstrip()))


def sort_lines(lines: list[Line], key: str) -> list[Line]:
    """Lines in ``key`` order (``corpus``: as found; stable, so equal contexts keep corpus order)."""
    if key == "left":
        return sorted(lines, key=lambda x: [fold(x.left[a:b]) for a, b in reversed(tokenize(x.left))])
    if key == "right":
        return sorted(lines, key=lambda x: [fold(x.right[a:b]) for a, b in tokenize(x.right)])
    return list(lines)


def concordance(hits: list[dict[str, Any]], key: str) -> list[Line]:
    """The hits' lines, sorted by ``key``."""
    return sort_lines([x for x in (line_of(h) for h in hits) if x is not None], key)
