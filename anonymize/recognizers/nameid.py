"""NAMEID: personal identifiers (NIF/NIPC, IBAN/NIB, phones, e-mail, URL, trigger-word codes) and PUBLIC_ID.

Self-evident shapes (e-mail, URL, IBAN with a valid mod-97, NIF with a valid check
digit, international phone numbers) fire alone. Any other code needs a trigger
word on its left (``NIF``, ``telefone``, ``passaporte`` ...). A bare ``n.º`` makes
a code an identifier only when no public-identifier noun (``Decreto-Lei``,
``artigo`` ...) governs it; those become PUBLIC_ID, which is kept visible unless
the config enables that category.
"""

from __future__ import annotations

import regex

from ..lexicons import fold
from ..recognizer import Recognizer, Segment, alternation, register

EMAIL = regex.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
URL = regex.compile(r"(?:https?://|www\.)[^\s<>\"“”«»]+[^\s<>\"“”«».,;:!?)\]]")
IBAN = regex.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
NIB = regex.compile(r"\b\d{4}[ .]?\d{4}[ .]?\d{11}[ .]?\d{2}\b")
NIF = regex.compile(r"(?<![\d.,/-])[1235689]\d{2}[ .]?\d{3}[ .]?\d{3}(?![\d,/-]|\.\d)")
PHONE_INTL = regex.compile(r"(?<![\w+])(?:\+|00)\d{1,3}[\s.-]?(?:\(0\)\s?)?\d{1,4}(?:[\s.-]?\d{2,4}){2,5}\b")
PHONE_PT = regex.compile(r"(?<![\d.,/-])(?:\(\+?351\)\s?)?[29]\d{2}[ .]\d{3}[ .]\d{3}(?![\d,/-]|\.\d)")
TWO_DIGITS = regex.compile(r"\d\D*\d")
MONEY = regex.compile(r"^\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?$")
# a code after a trigger: letters/digits with - / . inside, at least two digits
CODE = regex.compile(r"(?=[\p{L}\d./ -]*\d[\p{L}\d./ -]*\d)[\p{Lu}\d][\p{L}\d]*(?:(?:[./-]| (?=\d))[\p{L}\d]+)*")
# what may stand between a trigger and its code
GAP = r"(?:\s*(?:[:ºª°.]|n\.?\s?[º°o]\.?|n\.?º|nº|no\.|número|number|no|de|do|da|o|a|é|the|is|:)\s*){0,4}\s*"


def nif_valid(digits: str) -> bool:
    d = [int(c) for c in digits if c.isdigit()]
    if len(d) != 9:
        return False
    r = sum(v * (9 - i) for i, v in enumerate(d[:8])) % 11
    return d[8] == (0 if r < 2 else 11 - r)


def iban_valid(text: str) -> bool:
    s = text.replace(" ", "").upper()
    if not (15 <= len(s) <= 34):
        return False
    moved = s[4:] + s[:4]
    try:
        return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1
    except ValueError:
        return False


def nib_valid(text: str) -> bool:
    d = "".join(c for c in text if c.isdigit())
    return len(d) == 21 and (98 - (int(d[:19]) * 100) % 97) == int(d[19:])


@register("nameid")
class NameIdRecognizer(Recognizer):
    assigns = ("NAMEID", "PUBLIC_ID")

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        r = rules["nameid"]
        self.trigger_re = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(r['triggers'])})(?![\p{{L}}]){GAP}",
                                        regex.IGNORECASE)
        self.number_re = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(r['number_words'])})(?![\p{{L}}])\s*",
                                       regex.IGNORECASE)
        self.public = {fold(w) for w in r["public_nouns"]}
        self.public_re = regex.compile(
            rf"(?<![\p{{L}}])(?:{alternation(r['public_nouns'])})(?:-\p{{L}}+)?\s*(?:\([^)]{{1,12}}\)\s*)?{GAP}"
            r"(\d[\d./-]*\d|\d)", regex.IGNORECASE)

    def find(self, seg: Segment) -> list:
        t = seg.text
        out = []

        def add(s: int, e: int, cat: str, rule: str) -> None:
            if e > s and not any(m.start < e and s < m.end for m in out):
                out.append(self.mention(seg, s, e, cat, rule))

        if "@" in t:
            for m in EMAIL.finditer(t):
                add(m.start(), m.end(), "NAMEID", "email")
        if "://" in t or "www." in t:
            for m in URL.finditer(t):
                add(m.start(), m.end(), "NAMEID", "url")
        if not TWO_DIGITS.search(t):  # every pattern below needs two digits at least (most segments have none)
            return out
        for m in IBAN.finditer(t):
            if iban_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "iban:mod97")
        for m in NIB.finditer(t):
            if nib_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "nib:check")
        for m in PHONE_INTL.finditer(t):
            add(m.start(), m.end(), "NAMEID", "phone:international")
        for m in PHONE_PT.finditer(t):
            add(m.start(), m.end(), "NAMEID", "phone:pt")
        # public identifiers first, so that "Decreto-Lei n.º 487/99" never becomes a NAMEID
        for m in self.public_re.finditer(t):
            add(m.start(1), m.end(1), "PUBLIC_ID", "public_noun")
        for m in self.trigger_re.finditer(t):
            c = CODE.match(t, m.end())
            if c and len(c.group().replace(" ", "")) >= 3 and sum(ch.isdigit() for ch in c.group()) >= 2 \
                    and not MONEY.match(c.group()):
                add(c.start(), c.end(), "NAMEID", "trigger")
        for m in self.number_re.finditer(t):
            c = CODE.match(t, m.end())
            if c and len(c.group().replace(" ", "")) >= 4 and sum(ch.isdigit() for ch in c.group()) >= 2 \
                    and not MONEY.match(c.group()):
                add(c.start(), c.end(), "NAMEID", "trigger:number")
        for m in NIF.finditer(t):
            if nif_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "nif:check-digit")
        return out

    def validate(self, text: str) -> bool:
        return nif_valid(text) or iban_valid(text) or nib_valid(text) or bool(EMAIL.fullmatch(text))
