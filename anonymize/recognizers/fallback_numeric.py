"""Recall fall-back ``fallback_numeric``: remaining identifier-shaped numbers -> NAMEID (amounts, percentages,
years and periods are left alone)."""

from __future__ import annotations

import regex

from ..recognizer import Recognizer, Segment, register

# long digit runs or letter-digit codes; amounts (1.234.567,89), percentages and years are left alone
ID_SHAPE = regex.compile(
    r"(?<![\p{L}\d.,/-])(?:\d{6,}|(?=[\p{L}\d/-]*\d[\p{L}\d/-]*\d[\p{L}\d/-]*\d)(?=[\d/-]*\p{L})[\p{L}\d]+(?:[/-][\p{L}\d]+)+"
    r"|\d{2,}[/-]\d{2,}[/-]?[\p{L}\d]*)(?![\p{L}\d]|[.,]\d)")
MONEY = regex.compile(r"^\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?$")
TWO_DIGITS = regex.compile(r"\d\D*\d")  # (what every ID_SHAPE holds: two digits at least; most segments have none)
YEAR_RANGE = regex.compile(r"^(?:19|20)\d{2}-(?:(?:19|20)\d{2}|\d{2})$")  # a period, 2015-2017, 2019-20


@register("fallback_numeric")
class NumericFallback(Recognizer):
    assigns = ("NAMEID",)

    def find(self, seg: Segment) -> list:
        out = []
        for m in ID_SHAPE.finditer(seg.text) if TWO_DIGITS.search(seg.text) else ():
            if MONEY.match(m.group()) or YEAR_RANGE.match(m.group()) or seg.covered(m.start(), m.end()):
                continue
            out.append(self.mention(seg, m.start(), m.end(), "NAMEID", "fallback:numeric", score=0.5))
        return out
