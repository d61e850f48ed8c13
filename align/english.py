"""A second line on the English side: dates, identifiers, addresses, companies and titled persons found in
the target text itself, for what the transfer steps did not carry.

The transfer finds a source entity's English form by string, pattern and alignment; this finds English
shapes on their own (``this 22nd day of September 2023``, ``3rd Floor``, ``Smith & Jones Ltd``,
``+44 20 7946 0958``). ``Transferrer`` gives a hit the number of the source entity it matches (same date,
same digits, a shared name word) or a new one (a target-only entity), and widens a mention already there to
a hit that covers it (the whole company name with its legal tail, the whole address). Data (months, triggers,
street tails, legal tails, titles) is in ``anonymize/data/en.yaml``. What EU legislation is full of stays
visible: legislation numbers (``Regulation (EU) No 216/2008`` has no trigger), countries, institutions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import regex

from ..anonymize.address_edges import POSTCODE_WORD
from ..anonymize.recognizer import alternation, case_blind_gate, gate_fold, literal_gate
from ..anonymize.recognizers.date import ROMAN_GATE, ROMAN_MONTH_DATE
from ..anonymize.recognizers.nameid import (
    CPE,
    MASKED_CARD,
    ONE_DIGIT,
    REGISTRY_PRESENTATION,
    bracketed_phones,
)
from ..yaml_files import read_yaml
from .names import FIELD_LIST
from .values import WORD_DAYS_TEXT2NUM_KEEPS

DATA = Path(__file__).resolve().parent.parent / "anonymize" / "data" / "en.yaml"
ORDINAL = r"(?:st|nd|rd|th)"
YEAR = r"(?:1[89]|20)\d{2}"
NUMERIC_DATE = regex.compile(r"(?<![\d/.-])(?:(?P<a>\d{1,2})[/.-](?P<b>\d{1,2})[/.-](?P<c>(?:1[89]|20)\d{2})"
                             r"|(?P<iy>(?:1[89]|20)\d{2})-(?P<im>\d{2})-(?P<id>\d{2}))(?![\d/-]|\.\d)")
EMAIL = regex.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
IBAN = regex.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
CODE = regex.compile(r"(?=[\p{L}\d./ -]*\d[\p{L}\d./ -]*\d)[\p{Lu}\d][\p{L}\d]*"
                     r"(?:(?:[./-]| (?=\d)| (?=\p{Lu}{1,3}\d))[\p{L}\d]+)*(?:\(\d\))?")  # 15263809 5 Y47, 1284719(3)
# worth a look by phonenumbers: an international or bracketed prefix, or nine digits or more in groups (not a date)
PHONE_CONTEXT = 24  # characters the phone matcher sees on each side of phone-shaped digits
PHONE_GATE = regex.compile(r"(?:\+|\(\+?)\d[\d ().-]{5,}\d|(?<![\d.,/])\d(?:[ -]?\d){8,}")
# a phone's extension, as the Portuguese side leaves it visible ("225 071 930, extension 2214": the number only)
EXTENSION = regex.compile(r"[\s,;]*(?i:ext(?:ension)?\.?|x|#)\s*\d{1,6}$")
NIF_LIKE = regex.compile(r"(?<![\d.,/-])\d{3}[ .]?\d{3}[ .]?\d{3}(?![\d,/-]|\.\d)")  # checked by python-stdnum
WORD_ORDINAL = r"[A-Za-z]+(?:-[A-Za-z]+)?"  # "ninth", "twenty-second": checked by text2num
# a deed repeats a day, a month or a year in brackets, in digits or in words: "fifth (05) day of May (05)",
# "5 (five) May", "two thousand and twenty-five (2025)"
NUMBER_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thir|fif|fort[yi]|twen|hundred" \
    r"|thousand|first|second)[a-z]*"
ECHO = r"(?:\s*\((?:\d{1,4}(?:st|nd|rd|th)?|" + NUMBER_WORD + r"(?:[\s-](?:and\s+)?" + NUMBER_WORD + r"){0,5})\))?"
# a year in words, each word after "thousand" a number word (not the word after the date: "... twenty-six that")
WORD_YEAR = r"(?:two|one)\s+thousand(?:[\s-]+(?:and\s+)?" + NUMBER_WORD + r"(?:-" + NUMBER_WORD + r")?){0,2}" \
    r"|(?:nineteen|twenty)[\s-]+" + NUMBER_WORD + r"(?:-" + NUMBER_WORD + r")?"
# what leads to a date's year: ", ", " of ", "of the year ", "in the year "
YEAR_LEAD = r",?\s+(?:(?:of|in)\s+the\s+year\s+|of\s+)?"
WORD_DAY_REACH = 30  # characters before a month name in which a day in words is looked for ("twenty-second ")
# the days before a date's day that share its month ("15 and 17", "3, 4 and 5", "1 to 15", "14–16")
DAY_LIST_BEFORE = regex.compile(r"(?<![\p{L}\d,.])(?:\d{1,2}(?:st|nd|rd|th)?(?:\s*,\s*|\s+(?:and|to|&)\s+|\s*[-–]\s*))+$")
TRIGGER_GAP = r"(?:\s*(?:no\.?|number|nr\.?|n\.?º|:|is|\(|#)\s*){0,3}\s*"
TRIGGER_GAP_AFTER = regex.compile(TRIGGER_GAP, regex.IGNORECASE)
DOC_LETTERS = 3  # a document's letters between its trigger and its number ("RG", "BI", "PT")
UK_POSTCODE = regex.compile(r"\b(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?\s?\d[ABD-HJLNP-UW-Z]{2})\b")
PT_POSTCODE = regex.compile(r"\b\d{4}-\d{3}\b(?:\s+\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?)?")
US_ZIP = regex.compile(r"\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|"
                       r"S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s\d{5}(?:-\d{4})?\b")
# the postcodes' gates (the standard library's ``re``, as ``literal_gate``: several times faster than ``regex`` over a
# text), each what every match of its pattern holds: a digit before two capitals (a British postcode's last part),
# five digits in a row (a ZIP code), the Portuguese layout. A digit as ``regex`` reads it is an ASCII digit or a
# character outside ASCII (``re`` knows fewer Unicode digits: a gate must not turn one away)
MAYBE_DIGIT = r"[0-9\u0080-\U0010FFFF]"
UK_POSTCODE_GATE = re.compile(MAYBE_DIGIT + "[A-Z]{2}")
US_ZIP_GATE = re.compile(MAYBE_DIGIT + "{5}")
PT_POSTCODE_GATE = re.compile(MAYBE_DIGIT + "{4}-" + MAYBE_DIGIT + "{3}")
# a house number's letter or repeat mark: "12A", "31-B", "14 bis", "7 ter"
HOUSE_SUFFIX = r"(?:[A-Za-z]|-[A-Z]|\s+(?:bis|ter|quater))?(?![\p{L}])"
HOUSE_NUMBER = r"(?:No\.?\s*|no\.\s*|n\.?\s?º\s*|#\s*)?\d{1,5}" + HOUSE_SUFFIX
NAME_WORD = r"\p{Lu}[\p{L}'’-]*\.?"
# pieces of one address: commas, a town, and more house numbers after the first ("Largo X, 6 e 7, 2900-503 Setúbal")
MORE_HOUSE_NUMBERS = r"(?:(?:e|and|&|[/–-])\s*\d{1,5}[A-Za-z]?(?![\p{L}\d])[\s,]*)*"
# (and a plural number sign before them, "nos. 12 and 14"; the postcode's word before the postcode, "postcode 4100-130")
SIGNED_NUMBER = r"(?:(?:[Nn]os?\.|[Nn]umbers?)\s*\d{1,5}[A-Za-z]?(?![\p{L}\d])[\s,]*)?"
ADDRESS_GAP = regex.compile(r"[\s,]*" + SIGNED_NUMBER + MORE_HOUSE_NUMBERS + r"(?:\p{Lu}[\p{L}'’-]+[\s,]+){0,2}"
                            + POSTCODE_WORD + "?")
ORG_WORD = r"(?:\p{Lu}[\p{L}\p{N}'’.-]*|\d+)"
ORG_JOIN = r"(?:\s*[&–—-]\s*|\s+(?:and|of|for|&|d[aeo]s?|e)\s+|\s+)"  # Portuguese names keep their particles
DIGIT = regex.compile(r"\d")
PLACE_PARTICLE = r"\s+d[aeo]s?\s+"  # a Portuguese place quoted in a body's name: "Vila Nova de Famalicão Court"
LEADING_ARTICLE = regex.compile(r"(?:The|A|An|THE)\s+")
# where a body's capitalized run goes on into another phrase: a sentence's end or a dash, then an article
BODY_BREAK = regex.compile(r"\.?(?:\s+[–—-])?\s+(?:The|THE|A|An)(?![\p{L}])")
# the words before a date's day that are outside the date (gold guidelines: "On the [ninth day of October ...]")
DATE_LEAD = regex.compile(r"(?i:on|this|the|of)\s+")
FOUND_CACHE = 50_000  # texts whose hits a recognizer keeps (emptied when full)


@dataclass(frozen=True)
class Hit:
    start: int
    end: int
    category: str
    rule: str
    value: tuple | None = None  # a date's (day, month, year)


def _alt(words: list[str]) -> str:
    return "|".join(regex.escape(w) for w in sorted(set(words), key=len, reverse=True))


def _after_lead(text: str, start: int) -> int:
    """Where a date matched from ``start`` begins without the words that lead to it ("this", "the")."""
    while (m := DATE_LEAD.match(text, start)) and m.end() < len(text) and not text[m.end()].isspace():
        start = m.end()
    return start


@lru_cache(maxsize=1)
def english_data() -> dict:
    return read_yaml(DATA)


class EnglishRecognizer:
    """English dates, identifiers, addresses, companies and titled persons in a text."""

    def __init__(self, data: dict | None = None, pt_rules: dict | None = None) -> None:
        """``pt_rules``: the Portuguese rules (pt.yaml) already loaded, if they are (the anonymizer's)."""
        d = data or english_data()
        months = d["dates"]["months"]
        self.month_number = {m.lower(): k + 1 for k, m in enumerate(months)}
        self.month_number.update({a.lower(): n for a, n in d["dates"]["month_abbreviations"].items()})
        # (a dot after an abbreviation only: "3 March." ends a sentence, "3 Mar. 2024" is abbreviated)
        month = r"(?P<m%s>" + "|".join(sorted((m.lower() for m in months), key=len, reverse=True)) + r"|(?:" \
            + "|".join(sorted((a.lower() for a in d["dates"]["month_abbreviations"]), key=len, reverse=True)) \
            + r")\.?)"
        day = r"(?P<d%s>\d{1,2})" + ORDINAL + "?"
        # the patterns below run only on texts where their key words are (most segments have none)
        self.month_gate = regex.compile(r"(?<![\p{L}])(?:" + "|".join(sorted(self.month_number, key=len, reverse=True))
                                        + r")(?![\p{L}])", regex.IGNORECASE)
        self.dates = regex.compile(
            r"(?<![\p{L}\d])(?:"
            + r"(?:(?:this|the)\s+)?" + day % 1 + ECHO + r"\s+day\s+of\s+" + month % 1 + ECHO + r"(?:" + YEAR_LEAD
            + r"(?P<y1>" + YEAR + ")" + ECHO + ")?"
            + r"|(?:the\s+)?" + day % 2 + ECHO + r"(?:\s+(?:of\s+)?|-)" + month % 2 + r"(?:(?:,?\s+|-)(?P<y2>" + YEAR + "))?"
            + r"|" + month % 3 + r"\s+" + day % 3 + r"(?:,?\s+(?P<y3>" + YEAR + "))?"
            + r"|" + month % 4 + r",?\s+(?P<y4>" + YEAR + r")"
            + r")(?![\p{L}\d])", regex.IGNORECASE)
        # in words, as deeds write them: "the ninth day of October two thousand and twenty-four"
        self.word_dates = regex.compile(
            r"(?<![\p{L}\d])(?:(?:(?:this|the)\s+)?(?P<dw>" + WORD_ORDINAL + r")" + ECHO + r"\s+day\s+of\s+"
            r"(?:the\s+month\s+of\s+)?|(?:this|the)\s+(?P<dw2>" + WORD_ORDINAL + r")\s+of\s+)"
            + month % 5 + ECHO + r"(?:" + YEAR_LEAD + r"(?:(?P<y5>" + YEAR + r")|(?P<yw>" + WORD_YEAR + r"))" + ECHO + r")?"
            r"(?![\p{L}\d])", regex.IGNORECASE)
        # what every match of it holds, read in ``gate_fold(text)``: "day" (``... day of May``) or "of" and a month
        # (``the ninth of May``); most texts with a month name have neither
        self.word_dates_gate = literal_gate(r"day|of\s+(?:" + alternation(
            sorted({gate_fold(m) for m in self.month_number})) + ")")
        # a day in words, cardinal or ordinal, with no "day of", and a year: "twenty-two March two thousand and one"
        self.word_day_dates = regex.compile(
            r"(?<![\p{L}\d])(?P<dw>" + WORD_ORDINAL + r")\s+(?:of\s+)?" + month % 5 + r",?\s+(?:of\s+)?"
            r"(?:(?P<y5>" + YEAR + r")|(?P<yw>" + WORD_YEAR + r"))(?![\p{L}\d])", regex.IGNORECASE)
        self.trigger = regex.compile(r"(?<![\p{L}])(?:(?P<doc>" + _alt(d["identifiers"]["document_nouns"]) + r")|"
                                     + _alt(d["identifiers"]["triggers"]) + r")" + TRIGGER_GAP, regex.IGNORECASE)
        # what every trigger match holds, read on the text folded as a case-blind pattern reads it (a search for
        # literals with the standard library's re: several times faster than the trigger, which most texts lack)
        self.trigger_gate = case_blind_gate(d["identifiers"]["document_nouns"] + d["identifiers"]["triggers"])
        self._address_patterns(d["addresses"], pt_rules)
        self._organization_patterns(d["organizations"], d["persons"]["role_nouns"])
        self.person = regex.compile(r"(?<![\p{L}])(?:" + _alt(d["persons"]["titles"]) + r")\.?\s+"
                                    r"(?P<name>\p{Lu}[\p{L}'’-]+(?:\s+(?:\p{Lu}\.|\p{Lu}[\p{L}'’-]+)){0,3})")
        self.role_nouns = {w.lower() for w in d["persons"].get("role_nouns", [])}
        self.phone_regions = d["identifiers"].get("phone_regions", ["GB"])
        # imported here, when the finisher is built in the parent, not by each worker at its first segment
        import phonenumbers
        from stdnum import iban
        from stdnum.pt import nif

        self._phonenumbers, self._iban, self._nif = phonenumbers, iban, nif
        self._found: dict[str, tuple[Hit, ...]] = {}  # find's results by text

    def _organization_patterns(self, org: dict, role_nouns: list[str]) -> None:
        """The company and body patterns from en.yaml's ``organizations``."""
        o = org["legal_tails"]
        o = o + [t.upper() for t in o]  # LDA., LTD, INC. in names written in capitals
        word = r"(?!(?:" + _alt(o) + r")(?![\p{L}\d]))" + ORG_WORD  # a chain does not run over another's tail
        self.tail_gate = regex.compile(r"(?<![\p{L}\d])(?:" + _alt(o) + r")(?![\p{L}\d])")
        branch = r"(?:\s+[–—-]\s+(?:" + _alt(org["branch_words"]) + r")(?:\s+(?:em|in|de|of)\s+\p{Lu}[\p{L}-]+)?" \
            r"(?![\p{L}\d]))?"
        self.company = regex.compile(r"(?<![\p{L}\d])" + word + r"(?:" + ORG_JOIN + word + r"){0,8},?\s+(?:"
                                     + _alt(o) + r")(?![\p{L}\d])" + branch)
        cap = r"\p{Lu}[\p{L}'’.-]*"
        section = r"(?:\s+[–—-]\s+(?:" + _alt(org["body_sections"]) + r")\s+\d{1,3})"
        # a run of capitalized words joined by of/for/&/and/dashes, with a body's head noun in it, and its section
        numbered = r"(?!(?:" + _alt(org["body_sections"]) + r")\s+\d)"  # ("– Judge 2" is the section, below)
        # ("of the Notary X" names the person in charge, not the body; "in X" its seat: "Consulate General of
        # Portugal in Guangzhou")
        role = r"(?!(?:" + _alt(role_nouns) + r")(?![\p{L}]))"
        fields = r"(?<!(?:" + _alt(org["body_heads"]) + r"))" + FIELD_LIST  # (not a list of bodies: "X Court, Y Court")
        self.body = regex.compile(r"(?<![\p{L}\d])(?:\p{Lu}{2,8}\s+[–—-]\s+)?" + cap + r"(?:(?:\s+(?:of|for|in)\s+"
                                  r"(?:the\s+)?" + role + r"|\s+(?:and|&)\s+|\s+[–—-]\s+|" + PLACE_PARTICLE + r"|" + fields + r"|\s+)"
                                  + numbered + cap + r")*" + section + r"?")
        self.body_head = regex.compile(r"(?<![\p{L}])(?:" + _alt(org["body_heads"]) + r")(?![\p{L}])")
        self.body_head_gate = literal_gate(_alt(org["body_heads"]))  # (its words alone: in every match of it)
        self.name_opener = regex.compile(r"(?:" + _alt(org["name_openers"]) + r")\s+")

    def _address_patterns(self, a: dict, pt: dict | None = None) -> None:
        """The address patterns from en.yaml's ``addresses`` (and the street classes of pt.yaml)."""
        # (a floor in words is a part only where more parts follow it: "no. 5, ground floor left, 2800-100 Almada")
        self.level = regex.compile(r"(?<![\p{L}\d])(?:(?i:(?:" + _alt(a["floor_names"]) + r")\s+floor(?:\s+(?:"
                                   + _alt(a["sides"]) + r"))?(?=\s*,))|\d{1,2}(?:" + ORDINAL + r"|\.?º)\s+(?:" + _alt(a["levels"]) + r")"
                                   r"(?:\s+[A-Z](?![\p{L}\d]))?(?:\s+(?i:" + _alt(a["sides"]) + r"))?|(?:" + _alt(a["levels"]) + r")\s+\d{1,4}(?:\.\d{1,3})*[A-Z]?)"
                                   r"(?![\p{L}\d])")
        from ..anonymize.engine import load_rules

        pt = pt if pt is not None else load_rules("pt")
        tails = _alt(a["street_tails"])
        # (a direction after the tail is the street's: "King Street West", "Mayor Street Upper")
        direction = r"(?:\s+(?:" + _alt(pt["address_street_directions"]) + r")(?![\p{L}]))?"
        alone = _alt(a["street_tails_alone"])
        # what every match of level and street holds: where it is not, they are not run
        self.level_gate = literal_gate(r"(?:" + _alt(a["levels"]) + r")")
        self.street_gate = literal_gate(r"(?:" + tails + "|" + alone + r")")
        after = r"(?:,?\s+" + HOUSE_NUMBER + r"(?![\p{L}\d]))"
        self.street = regex.compile(  # a house number before or after, or a tail that needs none
            r"(?<![\p{L}\d])(?:" + HOUSE_NUMBER + r",?\s+(?:" + NAME_WORD + r"\s+){1,4}(?:" + tails + r")(?![\p{L}])"
            + direction + after + "?|(?:" + NAME_WORD + r"\s+){1,4}(?:" + tails + r")(?![\p{L}])" + direction + after
            + r"|(?:" + NAME_WORD + r"\s+){1,4}(?:" + alone + r")(?![\p{L}])" + direction + after + "?)")
        # German and Dutch streets fused with their street word, and the house number first with a French,
        # Italian or Spanish street word: the classes the Portuguese rules know (pt.yaml), quoted in English
        from ..anonymize.address_edges import AddressEdges
        from ..anonymize.lexicons import lexicons

        # street words before the name: English text's own and the Portuguese rules' (Portuguese, Spanish, Italian,
        # French ... streets quoted in English), but not their one- and two-letter abbreviations (R., Al.)
        # (a house number is no date's day: "Quinta do Lago, 12 March 2024")
        no_month = r"(?!\s+(?:of\s+)?(?i:" + "|".join(sorted(self.month_number, key=len, reverse=True)) + r")(?![\p{L}]))"
        # (a head only the Portuguese rules list needs a house number: "Vila Verde" alone is a town)
        more = [h for h in pt["address"]["heads"] if (len(h.rstrip(".")) > 2 or "/" in h) and h not in a["street_heads"]]
        name = r"\s+(?:(?:" + NAME_WORD + r"|" + _alt(pt["address_name_particles"]) + r"|\d{1,2}(?=\s+de\s))\s+){0,5}" \
            + NAME_WORD + r"(?:,?\s+" + HOUSE_NUMBER + r"(?![\p{L}\d])" + no_month + r")"
        self.street_head = regex.compile(r"(?<![\p{L}\d])(?:\d{1,5}[A-Za-z]?,?\s+)?(?:(?:" + _alt(a["street_heads"]) + r")"
                                         + name + r"?|(?:" + _alt(more) + r")" + name + r")")
        self.street_head_gate = literal_gate(_alt(a["street_heads"] + more))  # (its head words: in every match)
        fused = _alt(pt["address"]["fused_suffixes"])
        self.fused = regex.compile(r"(?<![\p{L}])\p{Lu}[\p{L}-]*(?i:" + fused + r")\s+\d+" + HOUSE_SUFFIX + r"(?![\d])")
        # (read on the lower-cased text: a case-blind pattern is several times slower)
        self.fused_gate = literal_gate(r"(?:" + _alt([w.lower() for w in pt["address"]["fused_suffixes"]]) + r")\s+\d")
        self.number_first = regex.compile(r"(?<![\p{L}\d,.])\d{1,4}" + HOUSE_SUFFIX + r",?\s+(?:"
                                          + _alt(pt["address_number_first_heads"]) + r")(?:\s+(?:"
                                          + _alt(pt["address_name_particles"]) + r"|\p{Lu}[\p{L}'’-]+)){1,5}")
        self.number_first_gate = literal_gate(_alt(pt["address_number_first_heads"]))  # (its head: in every match)
        self.edges = AddressEdges(a["levels"] + pt["address_unit_words"], pt["address_side_words"], lexicons().territories,
                                  pt["address_area_words"], pt["address_city_territories"],
                                  district_words=pt["address_district_words"],
                                  district_words_after=pt["address_district_words_after"], street_heads=pt["address"]["heads"])

    def word_date_value(self, m: regex.Match) -> tuple[int | None, int, int | None] | None:
        from text_to_num import alpha2digit, text2num

        word = (m.group("dw") or m.groupdict().get("dw2")).lower()
        day = WORD_DAYS_TEXT2NUM_KEEPS.get(word) or alpha2digit(word, "en")
        num = regex.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?", day)
        mon = m.group("m5")
        if not num or not 1 <= int(num.group(1)) <= 31 or mon.islower() and mon.lower() == "may":
            return None
        year = m.group("y5")
        if m.group("yw"):
            try:
                year = text2num(m.group("yw").lower().replace("-", " "), "en")
            except ValueError:
                return None
        return int(num.group(1)), self.month_number[mon.lower().rstrip(".")], int(year) if year else None

    def date_value(self, m: regex.Match) -> tuple[int | None, int, int | None] | None:
        for k in "1234":
            mon = m.group(f"m{k}")
            if mon:
                day = m.group(f"d{k}") if k != "4" else None
                year = m.group(f"y{k}")
                if mon.islower():  # "may", "march": a verb, not a month
                    return None
                if day and not 1 <= int(day) <= 31:
                    return None
                return (int(day) if day else None, self.month_number[mon.lower().rstrip(".")],
                        int(year) if year else None)
        return None

    def find(self, text: str) -> list[Hit]:
        """The hits in ``text``, longest first where they overlap, left to right. Memoized per recognizer (a
        translation memory repeats its segments; a hit is immutable, the list returned a new one)."""
        found = self._found.get(text)
        if found is None:
            if len(self._found) >= FOUND_CACHE:
                self._found.clear()
            found = self._found[text] = tuple(self._find(text))
        return list(found)

    def _find(self, text: str) -> list[Hit]:
        hits: list[Hit] = []
        months = self.month_gate.search(text) is not None
        for m in self.dates.finditer(text) if months else ():
            v = self.date_value(m)
            if v is not None:
                hits.append(Hit(_after_lead(text, m.start()), m.end(), "DATE", "en:date", v))
        for m in self._word_dates(text) if months else ():
            v = self.word_date_value(m)
            if v is not None:
                hits.append(Hit(_after_lead(text, m.start()), m.end(), "DATE", "en:date-words", v))
        for m in NUMERIC_DATE.finditer(text):
            if m.group("iy"):
                y, mo, dd = int(m.group("iy")), int(m.group("im")), int(m.group("id"))
            else:
                dd, mo, y = int(m.group("a")), int(m.group("b")), int(m.group("c"))
            if 1 <= mo <= 12 and 1 <= dd <= 31:
                hits.append(Hit(m.start(), m.end(), "DATE", "en:date-numeric", (dd, mo, y)))
        for m in ROMAN_MONTH_DATE.finditer(text) if ROMAN_GATE.search(text) else ():  # ("19.VIII.1983")
            hits.append(Hit(m.start(), m.end(), "DATE", "en:date-roman-month"))
        hits = [self._with_day_list(text, h) for h in hits]
        hits += self._identifiers(text)
        hits += self._addresses(text)
        for m in self.company.finditer(text) if self.tail_gate.search(text) else ():
            s = m.start()  # (not the words that open the sentence: "Between X, S.A. and ...")
            while (lead := LEADING_ARTICLE.match(text, s) or self.name_opener.match(text, s)) and lead.end() < m.end():
                s = lead.end()
            if s < m.end():
                hits.append(Hit(s, m.end(), "ORGANIZATION", "en:legal-tail"))
        hits += self._bodies(text)
        for m in self.person.finditer(text):
            if m.group("name").split()[0].lower() not in self.role_nouns:
                hits.append(Hit(m.start("name"), m.end(), "PERSON", "en:title"))  # the name, not its title
        hits.sort(key=lambda h: (h.start, h.start - h.end))
        out: list[Hit] = []
        for h in hits:
            if not out or h.start >= out[-1].end:
                out.append(h)
        return out

    def _bodies(self, text: str) -> list[Hit]:
        """English names of courts, registries and offices (a head noun in a capitalized run, and its section)."""
        if not self.body_head_gate.search(text) or not self.body_head.search(text):
            return []
        out = []
        for m in self.body.finditer(text):
            s = m.start()
            while (o := self.name_opener.match(text, s, m.end())) and o.end() < m.end():
                s = o.end()
            # (a sentence or a dash that opens another phrase ends the name: "... Registry Office – The Registrar")
            cut = BODY_BREAK.search(text, s, m.end())
            e = cut.start() if cut else m.end()
            if self.body_head.search(text, s, e):
                out.append(Hit(s, e, "ORGANIZATION", "en:body"))
        return out

    def _word_dates(self, text: str) -> list[regex.Match]:
        """Dates with the day in words: the deeds' layouts anywhere, a bare day in words only just before a month
        (read in a window around each month name, not at every position of the text)."""
        found = list(self.word_dates.finditer(text)) if self.word_dates_gate.search(gate_fold(text)) else []
        seen = {m.span() for m in found}
        for g in self.month_gate.finditer(text):
            m = self.word_day_dates.search(text, max(0, g.start() - WORD_DAY_REACH), min(len(text), g.end() + 60))
            if m and m.span() not in seen:
                seen.add(m.span())
                found.append(m)
        return found

    @staticmethod
    def _with_day_list(text: str, h: Hit) -> Hit:
        """A list or range of days before a date belongs to it: "15 and 17 February 2023", "1 to 15 March"."""
        if not text[h.start:h.start + 1].isdigit():
            return h
        days = DAY_LIST_BEFORE.search(text, max(0, h.start - 40), h.start)
        return Hit(days.start(), h.end, h.category, h.rule, h.value) if days else h

    def _identifiers(self, text: str) -> list[Hit]:
        phonenumbers, iban, nif = self._phonenumbers, self._iban, self._nif
        hits = [Hit(m.start(), m.end(), "NAMEID", "en:email") for m in EMAIL.finditer(text)]
        hits += [Hit(m.start(), m.end(), "NAMEID", "en:iban") for m in IBAN.finditer(text) if iban.is_valid(m.group())]
        windows: list[list[int]] = []  # the matcher reads only around phone-shaped digits, not the whole segment
        for g in PHONE_GATE.finditer(text):
            a, b = max(0, g.start() - PHONE_CONTEXT), min(len(text), g.end() + PHONE_CONTEXT)
            if windows and a <= windows[-1][1]:
                windows[-1][1] = max(windows[-1][1], b)
            else:
                windows.append([a, b])
        if windows:
            for a, b in windows:
                for region in self.phone_regions:
                    for pm in phonenumbers.PhoneNumberMatcher(text[a:b], region, leniency=phonenumbers.Leniency.VALID):
                        ext = EXTENSION.search(text, a + pm.start, a + pm.end) if pm.number.extension else None
                        s = a + pm.start + (pm.raw_string[0] == "(" and ")" not in pm.raw_string)  # ("user number (284 …)")
                        hits.append(Hit(s, ext.start() if ext else a + pm.end, "NAMEID", "en:phone"))
            hits += [Hit(m.start(), m.end(), "NAMEID", "en:nif") for m in NIF_LIKE.finditer(text)
                     if nif.is_valid(m.group())]
        hits += [Hit(s, e, "NAMEID", "en:phone") for s, e in bracketed_phones(text)]
        if "PT" in text:
            hits += [Hit(m.start(), m.end(), "NAMEID", "en:cpe") for m in CPE.finditer(text)]
        if "AP." in text or "Ap." in text:  # a registry presentation ("AP. 2117 of 2015/06/30": the number)
            hits += [Hit(m.start("num"), m.end("num"), "NAMEID", "en:registry") for m in REGISTRY_PRESENTATION.finditer(text)]
        if "***" in text or "XXXX" in text or "xxxx" in text or "••••" in text:
            hits += [Hit(m.start(), m.end(), "NAMEID", "en:card-masked") for m in MASKED_CARD.finditer(text)]
        for t in self.trigger.finditer(text) if self.trigger_gate.search(gate_fold(text)) else ():
            # (a private document's number however short: "Receipt no. 4")
            c = t.group("doc") and ONE_DIGIT.match(text, t.end()) or CODE.match(text, t.end())
            if c and not DIGIT.search(c.group()) and len(c.group()) <= DOC_LETTERS:
                # the document's letters, then its number: "identity card RG no. 12.345.678-9", not "RG"
                c = CODE.match(text, TRIGGER_GAP_AFTER.match(text, c.end()).end())
            if c and DIGIT.search(c.group()):
                hits.append(Hit(c.start(), c.end(), "NAMEID", "en:trigger"))
        return hits

    def _addresses(self, text: str) -> list[Hit]:
        # (each pattern only where what every match of it holds is: a head word, a digit, a postcode's dash)
        patterns = [self.street_head] if self.street_head_gate.search(text) else []
        if DIGIT.search(text):  # (postcodes, a fused street and a number-first one have their number)
            patterns += [pat for pat, gate in ((UK_POSTCODE, UK_POSTCODE_GATE), (PT_POSTCODE, PT_POSTCODE_GATE),
                                               (US_ZIP, US_ZIP_GATE)) if gate.search(text)]
            if self.number_first_gate.search(text):
                patterns.append(self.number_first)
            if self.fused_gate.search(text.lower()):
                patterns.append(self.fused)
        if self.level_gate.search(text):
            patterns.append(self.level)
        if self.street_gate.search(text):
            patterns.append(self.street)
        pieces = [(m.start(), m.end(), pat is self.level) for pat in patterns for m in pat.finditer(text)]
        pieces.sort()
        merged: list[list] = []
        for s, e, level in pieces:  # pieces of one address (street, number, floor, town, postcode) make one span
            if merged and (s <= merged[-1][1] or ADDRESS_GAP.fullmatch(text, merged[-1][1], s)):
                merged[-1][1] = max(merged[-1][1], e)
                merged[-1][2] = merged[-1][2] and level
            else:
                merged.append([s, e, level])
        # the parts around each address (address_edges: floor, postcode, town; room or block first)
        for m in merged:
            if not m[2]:
                m[0], m[1] = self.edges.start(text, m[0]), self.edges.end(text, m[1])
        merged += [[s, e, False] for s, e in self.edges.unit_first(text)]
        merged.sort(key=lambda x: (x[0], -x[1]))
        out: list[list] = []
        for m in merged:
            if out and m[0] < out[-1][1]:
                out[-1][1] = max(out[-1][1], m[1])
                out[-1][2] = out[-1][2] and m[2]
            else:
                out.append(m)
        # a floor or room alone ("on the 2nd floor") only widens an address already there
        return [Hit(s, e, "ADDRESS", "en:address-level" if level else "en:address") for s, e, level in out]
