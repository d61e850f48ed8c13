"""DATE: ``16 de Novembro de 1999``, ``16/11/1999``, ``16.11.99``, ``1999-11-16``, ``Novembro de 1999``."""

from __future__ import annotations

import regex

from ..recognizer import Recognizer, Segment, register

NUMERIC_DATE = regex.compile(r"(?<![\d/.-])(?:\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})(?![\d/-]|\.\d)")
DATE_SEPARATOR = regex.compile(r"[/.-]")
DAY = r"(?:\d{1,2}|1\.?[º°o])"


def month_alternation(months: list[str]) -> str:
    return "|".join(regex.escape(m) for m in sorted(set(months), key=len, reverse=True))


@register("date")
class DateRecognizer(Recognizer):
    assigns = ("DATE",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        months = month_alternation(rules["date"]["months"])
        self.written = regex.compile(
            rf"(?<![\p{{L}}\d])(?:{DAY}\s+de\s+)?(?:{months})(?:\s+de)?\s+\d{{4}}(?!\d)"
            rf"|(?<![\p{{L}}\d]){DAY}\s+de\s+(?:{months})(?![\p{{L}}])", regex.IGNORECASE)

    def find(self, seg: Segment) -> list:
        out = []
        for m in self.written.finditer(seg.text):
            out.append(self.mention(seg, m.start(), m.end(), "DATE", "date:written"))
        for m in NUMERIC_DATE.finditer(seg.text):
            if self.validate(m.group()) and not any(x.start < m.end() and m.start() < x.end for x in out):
                out.append(self.mention(seg, m.start(), m.end(), "DATE", "date:numeric"))
        return out

    def validate(self, text: str) -> bool:
        parts = [int(p) for p in DATE_SEPARATOR.split(text) if p.isdigit()]
        if len(parts) != 3:
            return False
        if parts[0] > 31:  # ISO
            return 1 <= parts[1] <= 12 and 1 <= parts[2] <= 31
        return 1 <= parts[0] <= 31 and 1 <= parts[1] <= 12
