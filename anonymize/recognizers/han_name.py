"""Names written in Chinese characters inside Portuguese or English text (``陈晓宇``, ``珠江航運有限公司``): a run
of Han characters is a name in a text of another script. It is an organisation when it ends with a body's
tail (``han_organization_tails`` in the rules: 公司, 有限公司, 銀行 ...), a person when it is two to four
characters long (a surname and a given name); other runs (a quoted title, an address) are left alone."""

from __future__ import annotations

import regex

from ..recognizer import Recognizer, Segment, register

HAN_RUN = regex.compile(r"\p{Han}+")
PERSON_LENGTH = range(2, 5)  # characters of a Chinese person's name: a one- or two-character surname and given name


@register("han_name")
class HanNameRecognizer(Recognizer):
    assigns = ("PERSON", "ORGANIZATION")

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        self.tails = tuple(rules.get("han_organization_tails", ()))

    def find(self, seg: Segment) -> list:
        t = seg.text
        if t.isascii():
            return []
        out = []
        for m in HAN_RUN.finditer(t):
            if seg.covered(m.start(), m.end()):
                continue
            if m.group().endswith(self.tails):
                out.append(self.mention(seg, m.start(), m.end(), "ORGANIZATION", "han:tail", "COMPANY", 0.9))
            elif len(m.group()) in PERSON_LENGTH:
                out.append(self.mention(seg, m.start(), m.end(), "PERSON", "han:name", score=0.8))
        return out
