"""DATE: ``16 de Novembro de 1999``, ``16/11/1999``, ``16.11.99``, ``1999-11-16``, ``Novembro de 1999``, and dates
in words (``aos vinte e dois dias do mês de março de dois mil e vinte e três``, ``no dia um de Junho``), whose
numbers text2num reads."""

from __future__ import annotations

import re

import regex
from text_to_num import text2num

from ..recognizer import Recognizer, Segment, alternation, case_blind_gate, numbered_act_nouns, register

NUMERIC_DATE = regex.compile(r"(?<![\d/.-])(?:\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})|\d{4}-\d{2}-\d{2})(?![\d/-]|\.\d)")
DATE_SEPARATOR = regex.compile(r"[/.-]")
# a date with its month in Roman numerals, as registries and some countries write it ("19.VIII.1983", "3-XI-2024")
ROMAN_MONTH_DATE = regex.compile(r"(?<![\p{L}\d/.-])(?:[12]\d|3[01]|0?[1-9])(?P<sep>[./-])(?:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)"
                                 r"(?P=sep)(?:1[6-9]|20)\d{2}(?![\p{L}\d])")
ROMAN_GATE = re.compile(r"[./-][IVX]")  # (its cheap gate: the standard library's re, literals only)
ACT_DATE_LEAD = regex.compile(r"(?:^|[\s,])de\s*$")  # "..., de 25 de outubro de 2017"
SENTENCE_BREAK = regex.compile(r"[.;:!?](?:\s|$)(?!\d)")  # a sentence ends between a citation and a date
DAY = r"(?:\d{1,2}|1\.?[º°o])"
DIGIT = regex.compile(r"\d")  # (what every written date holds: its day or year)
DEED_DAYS = regex.compile(r"\sdias?\s+d[eo]\s", regex.IGNORECASE)  # "vinte e dois dias de agosto", "um dia do mês de"
CLAUSE_WINDOW = 300  # characters before a date in which its clause is read
YEAR = regex.compile(r"(?<!\d)(?:1[6-9]|20)\d{2}(?!\d)")  # what every date in another language holds
CITATION_WINDOW = 160  # characters before a date in which the citation it dates is read


def month_alternation(months: list[str]) -> str:
    return "|".join(regex.escape(m) for m in sorted(set(months), key=len, reverse=True))


def foreign_months(locales: list[str]) -> list[str]:
    """Month names, full and abbreviated (three letters at least), in the given locales, from babel's CLDR data."""
    from babel.dates import get_month_names

    out: set[str] = set()
    for loc in locales:
        for width in ("wide", "abbreviated"):
            out.update(m for m in get_month_names(width, locale=loc).values() if len(m.rstrip(".")) >= 3)
    return sorted(out)


def foreign_date_pattern(months: list[str]) -> regex.Pattern:
    """A day, a month name and a four-digit year in the orders other languages write them: "7 March 2025",
    "22nd day of March 2023", "3. April 2024", "March 7, 2025"."""
    month = rf"(?:{month_alternation(months)})(?![\p{{L}}])"
    day = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th|er|\.)?"
    return regex.compile(
        rf"(?<![\p{{L}}\d])(?:{day}\s+(?:day\s+of\s+)?{month}\.?,?\s+(?:de\s+)?\d{{4}}"
        rf"|{month}\.?\s+{day},?\s+\d{{4}})(?!\d)", regex.IGNORECASE)


@register("date")
class DateRecognizer(Recognizer):
    assigns = ("DATE",)

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        months = month_alternation(rules["date"]["months"])
        d = rules["date"]
        word = rf"(?:{alternation(d.get('number_words', []))})"
        number = rf"{word}(?:\s+(?:e\s+)?{word})*"  # vinte e dois; dois mil e vinte e três
        first = alternation(d.get("first_day", []))
        # a day in words, its month, and maybe a year in words or digits
        # (a deed repeats each number in digits, in brackets: "aos cinco (05) dias do mês de maio (05) do ano de dois
        # mil e vinte e cinco (2025)")
        self.in_words = regex.compile(
            rf"\b(?P<day>{number}|{first})(?:\s*\(\d{{1,2}}\))?\s+(?:{alternation(d.get('day_month_links', ['de']))})\s+"
            rf"(?P<month>{months})(?![\p{{L}}])(?:\s*\(\d{{1,2}}\))?"
            rf"(?:\s+(?:{alternation(d.get('year_links', ['de']))})\s+(?P<year>\d{{4}}(?!\d)|{number})(?:\s*\(\d{{4}}\))?)?",
            regex.IGNORECASE)
        # every date in words holds a month's name: most segments hold none, and a substring test is cheap
        self.month_keys = tuple({m.lower() for m in d["months"]})
        self.month_gate = case_blind_gate(d["months"])  # (a written date's month, read case-blind in Segment.folded)
        self.first_day = {w.lower() for w in d.get("first_day", [])}
        months_abroad = foreign_months(rules["date_foreign_locales"])
        self.foreign = foreign_date_pattern(months_abroad)
        # its cheap gate: the month names alone, read in ``Segment.folded`` (every case-blind match holds one
        # there; a case-blind list of a hundred names cost five times more)
        self.foreign_gate = case_blind_gate(months_abroad)
        links = alternation(rules["date_day_list_links"])
        # "14 e ", "3, 4 e ": the days listed before a written date's day
        self.day_list = regex.compile(rf"(?<![\p{{L}}\d.,/])\d{{1,2}}(?:\s*,\s*\d{{1,2}})*(?:\s+(?:{links})\s+|[–-])$")
        self._act_contexts(rules)
        self.written = regex.compile(
            rf"(?<![\p{{L}}\d])(?:{DAY}\s+(?:de\s+)?)?(?:{months})(?:\s+de)?\s+\d{{4}}(?!\d)"
            rf"|(?<![\p{{L}}\d]){DAY}\s+de\s+(?:{months})(?![\p{{L}}])", regex.IGNORECASE)

    def _act_contexts(self, rules) -> None:
        """The words before a date that make it an act's (its adoption, effect, citation, signature, a public
        body's meeting) or a private party's (a private event)."""
        acts = alternation(rules["act_nouns"])
        # a capitalized act noun in the clause before the date, or "a presente decisão": the act's date
        self.decision_before = regex.compile(
            rf"(?<![\p{{L}}])(?:{alternation(rules['date'].get('decision_nouns', []))})\s+de\s*\Z")
        # (an agreement in lower case is a contract's, whose dates are the parties': "o presente protocolo produz
        # efeitos a ..."; "o presente Acordo" between states is an act)
        self.act_before = regex.compile(rf"(?:(?<![\p{{L}}])(?:{acts})(?![\p{{L}}])|(?i:presente)\s+"
                                        rf"(?:(?i:{alternation(numbered_act_nouns(rules))})|{acts})(?![\p{{L}}]))")
        leads = alternation(rules["date_effect_leads"])
        participles = alternation(rules["date_act_participles"])
        joined = r"(?![\p{L}])[^.;:]{0,80}\s(?:em|a)\s*\Z"
        self.effect_before = regex.compile(
            rf"(?:(?<![\p{{L}}])(?i:{leads})\s*\Z|(?<![\p{{L}}])(?i:{alternation(rules['date_accession_verbs'])}){joined})")
        self.adopted_before = regex.compile(
            rf"(?<![\p{{L}}])(?i:{acts})(?![\p{{L}}])[^.;:,]{{0,40}}?(?<![\p{{L}}])(?i:{participles}){joined}"
            rf"|(?<![\p{{L}}])(?i:{alternation(rules['date_act_verbs'])})\s+(?:[oa]s?\s+)?(?i:{acts})(?![\p{{L}}])"
            rf"[^.;:,]{{0,40}}\s(?:em|a)\s*\Z")
        # an EU act's citation right before its date: the act noun, its EU marker and number, its issuer in capitals
        # and "de" ("Regulamento (UE) 2017/997 do Conselho, de", "Decisão da Comissão, de"): the date of the act cited
        self.cited_act = regex.compile(
            rf"(?<![\p{{L}}])(?:{acts})(?:\s+\((?:UE|CE|CEE|Euratom)(?:,\s*(?:UE|CE|CEE|Euratom))*\))?"
            rf"(?:\s+n\.?\s?[º°o]\.?)?(?:\s*\d{{1,4}}/\d{{1,4}}(?:/(?:UE|CE|CEE))?)?"
            rf"(?:\s+d[oa]s?(?:\s+(?:\p{{Lu}}[\p{{L}}\p{{M}}-]*|d[oa]s?|e))+)?,\s+de\s*\Z")
        self.meeting_before = regex.compile(rf"(?<![\p{{L}}])(?i:{alternation(rules['date_meeting_nouns'])})\s+de\s*\Z")
        self.polity_before = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(rules['polities'])})(?![\p{{L}}])")
        # an act's signature formula with its place, after the act's long title: "..., assinado em Cotonu em"
        self.signed_at = regex.compile(rf"(?<![\p{{L}}])(?:{participles})\s+em\s+\p{{Lu}}[\p{{L}}-]+(?:\s+\p{{Lu}}[\p{{L}}-]+)?"
                                       rf",?\s+em\s*\Z")
        self.private_event = regex.compile(rf"(?<![\p{{L}}])(?i:{alternation(rules['date_private_events'])})(?![\p{{L}}])")
        self.citation_opener = regex.compile(rf"\s*(?:{alternation(rules['date_citation_openers'])})(?![\p{{L}}])")
        self.signature = regex.compile(
            rf"(?<![\p{{L}}])(?:{alternation(rules['date_signature_leads'])})\s+em\s+\p{{Lu}}[\p{{L}}\s-]{{1,40}},?\s+(?:em\s+)?$")

    def find(self, seg: Segment) -> list:
        out = []
        low = seg.text.lower()
        dated = any(k in low for k in self.month_keys)
        for m in self.in_words.finditer(seg.text) if dated else ():
            day = self._value(m.group("day"))
            if not 1 <= day <= 31:
                continue
            end = m.end()
            year = m.group("year")
            if year and not 1000 <= self._value(year) <= 2999:
                end = m.end("month")  # "um de junho de dois": the day and month only
            out.append(self.mention(seg, m.start(), end, "DATE", "date:words"))
        # (a written date holds a month and a digit: its day or year)
        written = self.month_gate.search(seg.folded) and DIGIT.search(seg.text)
        for m in self.written.finditer(seg.text) if written else ():
            if any(x.start < m.end() and m.start() < x.end for x in out):
                continue
            listed = self.day_list.search(seg.text, max(0, m.start() - 24), m.start()) if m.group()[:1].isdigit() else None
            out.append(self.mention(seg, listed.start() if listed else m.start(), m.end(), "DATE", "date:written"))
        for m in self.foreign.finditer(seg.text) \
                if YEAR.search(seg.text) and self.foreign_gate.search(seg.folded) else ():
            if not any(x.start < m.end() and m.start() < x.end for x in out):
                out.append(self.mention(seg, m.start(), m.end(), "DATE", "date:foreign"))
        for m in NUMERIC_DATE.finditer(seg.text):
            if self.validate_result(m.group()) and not any(x.start < m.end() and m.start() < x.end for x in out):
                listed = self.day_list.search(seg.text, max(0, m.start() - 24), m.start())  # ("10–14.11.2025")
                out.append(self.mention(seg, listed.start() if listed else m.start(), m.end(), "DATE", "date:numeric"))
        for m in ROMAN_MONTH_DATE.finditer(seg.text) if ROMAN_GATE.search(seg.text) else ():
            if not any(x.start < m.end() and m.start() < x.end for x in out):
                out.append(self.mention(seg, m.start(), m.end(), "DATE", "date:roman-month"))
        return [self._act_date(seg, m) for m in out]

    def _act_date(self, seg: Segment, m):
        """The date of a legal act is public: "Regulamento (UE) 2017/1938 do Parlamento Europeu e do Conselho, de
        25 de outubro de 2017" (a PUBLIC_ID earlier in the sentence, the date after "de"), a title's date
        line on its own ("de 18 de fevereiro de 2019"), the date of an act's legal effect, adoption or signature
        and of a state's accession (``date_effect_leads``, ``date_act_participles``, ``date_accession_verbs``)."""
        before = seg.text[:m.start]
        near = seg.text[max(0, m.start - CLAUSE_WINDOW):m.start]  # (a window: a long segment stays linear)
        clause = near[max((b.end() for b in SENTENCE_BREAK.finditer(near)), default=0):]
        if self.decision_before.search(seg.text, max(0, m.start - 40), m.start):
            return m  # "por decisão de 3 de abril de 2024": a decision's own date, whatever act the clause cites
        if m.rule == "date:words" and DEED_DAYS.search(m.text) and not seg.memory.act_document:
            return m  # a deed's formula is a private party's date ("Feito em Beja, aos vinte e dois dias de agosto ...")
        signed = None  # (the signature formula before the date, read once)
        if m.rule == "date:numeric" and not seg.memory.act_document:
            signed = self.signature.search(clause) is not None
            if signed:
                return m  # a private deed's signature, its date in digits ("Feito em Ponte de Sor, em 14.02.2025")
        if seg.memory.act_document and not self.private_event.search(seg.text):
            m.category, m.rule = "PUBLIC_ID", "act_date"  # a legal act's dates: meetings, deadlines, acts cited
            if self.cited_act.search(seg.text, max(0, m.start - CITATION_WINDOW), m.start) or self.signature.search(clause) \
                    or self.meeting_before.search(seg.text, max(0, m.start - 30), m.start):
                m.rule = "act_date:cited"  # (an act's citation, signature or a body's meeting: public beside a party after it)
            return m
        if (self.signature.search(clause) if signed is None else signed) \
                or self.adopted_before.search(clause, max(0, len(clause) - 200)) \
                or (self.citation_opener.match(seg.text) or self.signed_at.search(clause)) and self.act_before.search(before) \
                or self.act_before.search(clause) and (
                ACT_DATE_LEAD.search(before) or regex.search(r"(?i:presente)\s", clause)
                or self.effect_before.search(clause, max(0, len(clause) - 120))) or self.polity_before.search(clause) \
                and self.effect_before.search(clause, max(0, len(clause) - 120)):
            m.category, m.rule = "PUBLIC_ID", "act_date"
            return m
        if not ACT_DATE_LEAD.search(before):
            return m
        whole = not before.strip(" \t").lower().rstrip().removesuffix("de").strip() and not seg.text[m.end:].strip(" .;,")
        cited = any(x.category == "PUBLIC_ID" and x.end <= m.start and m.start - x.end <= 200
                    and not SENTENCE_BREAK.search(seg.text, x.end, m.start) for x in seg.found)
        if whole or cited:
            m.category, m.rule = "PUBLIC_ID", "act_date"
        return m

    def _value(self, words: str) -> int:
        """The number some words write (``vinte e dois`` -> 22), 0 when they write none."""
        w = " ".join(words.lower().split())
        if w in self.first_day:
            return 1
        if w.isdigit():
            return int(w)
        try:
            return text2num(w, "pt")
        except ValueError:
            return 0

    def validate_result(self, text: str) -> bool:
        parts = [int(p) for p in DATE_SEPARATOR.split(text) if p.isdigit()]
        if len(parts) != 3:
            return False
        if parts[0] > 31:  # ISO
            return 1 <= parts[1] <= 12 and 1 <= parts[2] <= 31
        return 1 <= parts[0] <= 31 and 1 <= parts[1] <= 12
