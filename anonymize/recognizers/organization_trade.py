"""ORGANIZATION (COMPANY): a company's name, its trade after a dash and its legal form, in any case.

``casa a 3 tempos – mediação imobiliária, unipessoal, limitada``, ``VALOR 7 – peritagens, sociedade
unipessoal por quotas``, ``O CANTINHO DO 7 – RESTAURAÇÃO, LDA.``: a firm's registered name often opens with
lower-case words or digits, which no proper-noun chain holds. The dash, a short trade and a legal form
after a comma (``organization.trade_forms``, read case-blind) say that the words before the dash are a
company's name; where the name starts is read from the words before it (the first capitalized word;
failing one, the words after a sentence's start or the last function word, a role noun dropped).
"""

from __future__ import annotations

import re

import regex

from ...text import fold
from ..recognizer import Gated, Recognizer, Segment, alternation, gate_fold, register

NAME_WORDS = 6  # words before the dash looked at for the name
SHORT_NAME = 4  # at a sentence's or clause's start, this many words are the name whatever they are
HARD_START = regex.compile(r"(?:^|[:;(«\"“,])\s*\Z")  # a clause's start before the name
DIGITS = regex.compile(r"\d+")
DASHES = regex.compile(r"[–—]")


@register("organization_trade")
class OrganizationTradeRecognizer(Recognizer):
    assigns = ("ORGANIZATION",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        o = rules["organization"]
        form = rf"(?i:{alternation(o.get('trade_forms', []))})"
        # the name (up to NAME_WORDS words, no clause punctuation), a dash, the trade (no sentence punctuation)
        # and one to three legal forms after a comma ("..., unipessoal, limitada")
        self.pattern = Gated(regex.compile(
            rf"(?P<name>[^\s,;:()«»\"“”–—]+(?:\s+[^\s,;:()«»\"“”–—]+){{0,{NAME_WORDS - 1}}})\s+[–—]\s+"
            rf"(?P<trade>\p{{L}}[^,;:()«»\"“”\n–—.]{{1,60}}?),\s+{form}(?:,?\s+{form}){{0,2}}(?![\p{{L}}\d])"), DASHES)
        # no dash: a name with lower-case words or digits before a legal form, after a noun that says it is a
        # company ("a sociedade Lacticínios do pico arde, Lda.") or, with digits, after an article ("a IMO-sado 2
        # Mediação Imobiliária, Lda."); names of capitalized words alone are the proper-noun chains' to read
        self.plain = regex.compile(
            rf"(?P<name>\p{{Lu}}[^\s,;:()«»\"“”–—]*(?:\s+[^\s,;:()«»\"“”–—]+){{1,{NAME_WORDS - 1}}}),\s+{form}"
            rf"(?:,?\s+{form}){{0,2}}(?![\p{{L}}\d])")
        # every match holds a comma and a legal form as a word: searched in the folded text before either pattern
        # (a form's letters alone, "sa", are in most texts)
        self.form_gate = re.compile(rf",\s+(?:{alternation(sorted({gate_fold(f) for f in o.get('trade_forms', [])}))})"
                                    r"(?![^\W\d_])")
        self.kind_nouns = {fold(w) for w in o.get("company_kind_nouns", [])}
        self.function_words = {fold(w) for w in rules.get("function_words", [])}
        self.role_nouns = {fold(w) for w in o.get("company_role_nouns", []) + o.get("company_kind_nouns", [])
                           + o.get("body_role_nouns", [])}

    def find(self, seg: Segment) -> list:
        out = []
        t = seg.text
        if not self.form_gate.search(seg.folded):
            return out
        for m in self.pattern.finditer(t):
            start = self._name_start(t, m)
            if start is not None and self._unread(t[start:m.end("name")], t[m.end("trade"):m.end()]) \
                    and not seg.covered(start, m.end()):
                out.append(self.mention(seg, start, m.end(), "ORGANIZATION", "trade-form", subtype="COMPANY"))
        for m in self.plain.finditer(t):
            if (start := self._plain_start(t, m)) is not None and not seg.covered(start, m.end()):
                out.append(self.mention(seg, start, m.end(), "ORGANIZATION", "trade-form", subtype="COMPANY"))
        return out

    def _unread(self, name: str, form: str) -> bool:
        """Whether the proper-noun chains cannot read this company: its name holds a lower-case word or digits, or
        its legal form is written in lower case (capitalized names with a capitalized form are theirs: "MOTA,
        PINTO & ASSOCIADOS – SROC, LDA.")."""
        return form.islower() or any(w[:1].islower() and fold(w) not in self.function_words
                                     or any(c.isdigit() for c in w) for w in name.split())

    def _plain_start(self, t: str, m: regex.Match) -> int | None:
        """Where a company's name before a legal form, without a dash, starts: at a capitalized word after a noun
        that says it is a company, when lower-case words follow in it, or after a function word, when it holds
        digits (names of capitalized words alone are the proper-noun chains' to read)."""
        prev = t[max(0, m.start() - 30):m.start()].split()[-1:]
        words = [(w.start(), w.group()) for w in regex.finditer(r"\S+", m.group("name"))]
        for k, (at, w) in enumerate(words):
            before = fold(words[k - 1][1]) if k else fold(prev[0]) if prev else ""
            if not w[:1].isupper() or not before:
                continue
            rest = [x for _, x in words[k:]]
            if any(x[:1].islower() and fold(x) not in self.function_words for x in rest) and before in self.kind_nouns \
                    or any(c.isdigit() for x in rest for c in x) and before in self.function_words:
                return m.start("name") + at
        return None

    def _closed(self, word: str) -> bool:
        f = fold(word)
        return f in self.function_words or f in self.lex.closed

    def _name_start(self, t: str, m: regex.Match) -> int | None:
        """Where the company's name before the dash starts (None: no word of it is a name's)."""
        spans = [(w.start(), w.group()) for w in regex.finditer(r"\S+", m.group("name"))]
        base = m.start("name")
        words = [w for _, w in spans]
        # the first capitalized word or word with digits and letters; a sentence's capitalized function word before
        # lower-case words is no name's ("Entre casa a 3 tempos"), an article before capitals is ("O CANTINHO")
        for k, w in enumerate(words):
            upper_next = k + 1 < len(words) and words[k + 1][:1].isupper()
            if w[:1].isupper() and not (self._closed(w) and not upper_next) and fold(w) not in self.role_nouns:
                return base + spans[k][0]
        k = 0
        at_start = HARD_START.search(t, 0, base) is not None
        while k < len(words) - 1 and self._closed(words[k]):
            k += 1
        if not (at_start and len(words) - k <= SHORT_NAME):
            # after the last function word; a number alone after it is the end of the name ("casa a 3 tempos")
            last = max((j for j, w in enumerate(words) if self._closed(w)), default=-1)
            k = last + 1
            if k >= 2 and k < len(words) and DIGITS.fullmatch(words[k]) and not self._closed(words[k - 2]):
                k -= 2
        while k < len(words) - 1 and fold(words[k]) in self.role_nouns:
            k += 1  # "pela administradora gestcond 21": the role is no part of the name
        if k >= len(words) or all(DIGITS.fullmatch(w) for w in words[k:]):
            return None
        return base + spans[k][0]
