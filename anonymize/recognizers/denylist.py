"""Deny-list: strings that are always anonymized, with the category the config gives them (``anonymize.deny``)."""

from __future__ import annotations

import regex

from ..recognizer import Recognizer, Segment, register


@register("denylist")
class DenyListRecognizer(Recognizer):
    assigns = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE")
    settings = ("deny",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        entries = (options or {}).get("deny") or {}  # category -> [strings]
        self.patterns = [(cat, regex.compile(rf"(?<![\p{{L}}\d]){regex.escape(s)}(?![\p{{L}}\d])",
                                             regex.IGNORECASE))
                         for cat, items in entries.items() for s in items]

    def find(self, seg: Segment) -> list:
        out = []
        for cat, pat in self.patterns:
            for m in pat.finditer(seg.text):
                cat_main, _, sub = cat.partition("_")
                out.append(self.mention(seg, m.start(), m.end(), cat_main, "deny-list", subtype=sub))
        return out
