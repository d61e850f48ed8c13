"""Dates and numbers by value, in either language: what transfer back-aligns when the form changes
(``12 de março de 2021`` -> ``12 March 2021``). Month names are language data (:mod:`paranon.align.language`)."""

from __future__ import annotations

import regex

from ..text import fold
from .language import TransferWords

WORDS = TransferWords.of("pt", "en")
MONTHS_EN = list(WORDS.months_tgt)
MONTHS_PT = list(WORDS.months_src)
EN_DATE = regex.compile(
    r"(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+of\s+(?:the\s+month\s+of\s+)?|of\s+)?(?P<m>" + "|".join(MONTHS_EN) + r")(?:,?\s+(?P<y>\d{4}))?"
    r"|(?P<m2>" + "|".join(MONTHS_EN) + r")\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+)(?P<y2>\d{4})"
    r"|(?P<m3>" + "|".join(MONTHS_EN) + r")\s+(?P<y3>\d{4})"
    r"|(?P<n>(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?![\d/-])|\d{4}-\d{2}-\d{2})", regex.IGNORECASE)
PT_DATE = regex.compile(r"(?P<d>\d{1,2})?(?:\.?[º°o])?(?:\s+de)?\s*(?P<m>" + "|".join(MONTHS_PT) +
                        r")[a-z.]*(?:\s+de)?\s*(?P<y>\d{4})?", regex.IGNORECASE)
DAYS_OF_MONTH = regex.compile(r"\s+dias?\s+do\s+mes\s+de\s+")  # (folded)
FIRST_DAY = regex.compile(r"(?<![\p{L}])(?:primeiro|um)\s+de(?=\s)")
FIRST_DAY_EN = regex.compile(r"(?<![\p{L}-])(?:first|second)(?=\s+(?:day\s+)?of\s)", regex.IGNORECASE)
# the ordinals text2num leaves in words (ambiguous with "first of all", "second"): days before a month
WORD_DAYS_TEXT2NUM_KEEPS = {"first": "1st", "second": "2nd"}
NUMERIC_DATE = regex.compile(r"(\d{1,4})[/.-](\d{1,2})[/.-](\d{2,4})")  # 12/03/2021, 2021-03-12
NUMBER_LIKE = regex.compile(r"[\p{L}\p{N}+(][\p{L}\p{N} ./()+-]*[\p{L}\p{N}]")  # an ID as written: +351 (21) 123 45 67


def date_value(text: str, english: bool) -> tuple[int | None, int | None, int | None] | None:
    """(day, month, year) of a date in either language, for back-alignment."""
    num = NUMERIC_DATE.fullmatch(text.strip())
    if num:
        a, b, c = (int(x) for x in num.groups())
        if a > 31:
            return c, b, a
        return a, b, (c + 2000 if c < 50 else c + 1900) if c < 100 else c
    if english:
        if not any(c.isdigit() for c in text):
            from text_to_num import alpha2digit

            text = alpha2digit(FIRST_DAY_EN.sub(lambda d: WORD_DAYS_TEXT2NUM_KEEPS[d.group().lower()], text), "en")
        m = EN_DATE.search(text)
        if not m:
            return None
        d = m.group("d") or m.group("d2")
        mon = m.group("m") or m.group("m2") or m.group("m3")
        y = m.group("y") or m.group("y2") or m.group("y3")
        return (int(d) if d else None, MONTHS_EN.index(mon.lower()) + 1, int(y) if y else None)
    folded = fold(text)
    if not any(c.isdigit() for c in folded):
        folded = words_to_digits(folded)  # a deed's date in words: "vinte e dois dias do mes de marco de ..."
    m = PT_DATE.search(folded)
    if not m:
        return None
    return (int(m.group("d")) if m.group("d") else None, MONTHS_PT.index(m.group("m").lower()) + 1,
            int(m.group("y")) if m.group("y") else None)


def words_to_digits(folded: str) -> str:
    """Numbers in words as digits (text2num), and a deed's "dias do mes de" as a day's "de": "vinte e dois dias
    do mes de marco de dois mil e vinte" -> "22 de marco de 2020"; "primeiro"/"um" before "de" as 1."""
    from text_to_num import alpha2digit

    out = alpha2digit(FIRST_DAY.sub("1 de", folded), "pt")
    return DAYS_OF_MONTH.sub(" de ", out)


def digits(text: str) -> str:
    return "".join(c for c in text if c.isalnum()).lower()
