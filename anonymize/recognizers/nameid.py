"""NAMEID: personal identifiers (NIF/NIPC, IBAN/NIB, phones, e-mail, URL, trigger-word codes) and PUBLIC_ID.

Self-evident shapes (e-mail, URL, IBAN with a valid mod-97, NIF with a valid check
digit, international phone numbers) fire alone. Any other code needs a trigger
word on its left (``NIF``, ``telefone``, ``passaporte`` ...). A bare ``n.º`` makes
a code an identifier only when no public-identifier noun (``Decreto-Lei``,
``artigo`` ...) governs it; those become PUBLIC_ID, which is kept visible unless
the config enables that category.
"""

from __future__ import annotations

import re
from functools import cache

import phonenumbers
import regex
from stdnum.pt import cc as citizen_card

from ...text import fold
from ..check_digits import (
    checked_identifier,
    iban_valid,
    nib_valid,
    nif_valid,
    phone_valid,
    phone_valid_in,
    s10_valid,
)
from ..recognizer import (
    Gated,
    Recognizer,
    Segment,
    alternation,
    case_blind_gate,
    literal_gate,
    numbered_act_nouns,
    register,
)

EMAIL = regex.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
SPACED_THOUSANDS = regex.compile(r"\d{1,3}(?: \d{3})+")
NUMBER_SIGN_ONLY = regex.compile(r"(?i:n\.?\s?[º°o]\.?|nº|n°)")  # "n.º" (not "número": "número 1 000 de ...")
CURRENCY_AFTER = regex.compile(r"\s*(?:€|euros?|EUR|USD|US\$|\$|£|GBP|reais|R\$|kz|kwanzas?)(?![\p{L}])", regex.IGNORECASE)
POSTAL_GATE = re.compile(r"[A-Z]{2} ?\d{4}")  # (stdlib re: a cheap necessary condition)
# a registered letter's or parcel's number (UPU S10: two letters, nine digits, the country's two letters), in any
# spacing ("RH 4471 0293 5 PT", "RR123456785PT")
POSTAL_ITEM = regex.compile(r"(?<![\p{L}\d])[A-Z]{2}\s?\d{4}\s?\d{4}\s?\d\s?[A-Z]{2}(?![\p{L}\d])")
URL = regex.compile(r"(?:https?://|www\.)[^\s<>\"“”«»]+[^\s<>\"“”«».,;:!?)\]]")
IBAN = regex.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
NIB = regex.compile(r"\b\d{4}[ .]?\d{4}[ .]?\d{11}[ .]?\d{2}\b")
# (a comma or full stop after a number ends it unless a digit follows: "NIF 503 004 529, residente")
NIF = regex.compile(r"(?<![\d.,/-])[1235689]\d{2}[ .]?\d{3}[ .]?\d{3}(?![\d/-]|[.,]\d)")
PHONE_INTL = regex.compile(r"(?<![\w+]|\d[ .])(?:\+|00)\d{1,3}[\s.-]?(?:\(0\)\s?)?\d{1,4}(?:[\s.-]?\d{2,4}){2,5}\b")
# a country calling code in brackets without its "+" ("(853) 2833 1746", "(971) 50 123 4567"): a phone when the
# digits after it are a valid number of that country (phonenumbers)
PHONE_BRACKETED_CC = regex.compile(r"(?<![\d)])\(\+?(?P<cc>[1-9]\d{0,2})\)\s?(?P<num>\d(?:[ .-]?\d){4,13})(?![\d])")
# a letter prefix just before "00…": the digits are a code's ("AU-0045.1123.77", "C 0041 7752"), not a phone's
CODE_PREFIX_BEFORE = regex.compile(r"(?<![\p{L}])\p{Lu}{1,3}[ -]?$")
# the Portuguese electricity and gas delivery point code (CPE/CUI): PT, sixteen digits, two letters
CPE = regex.compile(r"(?<![\p{L}\d])PT\s?\d{4}\s?\d{4}\s?\d{4}\s?\d{4}\s?[A-Z]{2}(?![\p{L}\d])")
PHONE_PT = regex.compile(r"(?<![\d.,/-]|\d )(?:\(\+?351\)\s?)?[29]\d{2}[ .]\d{3}[ .]\d{3}(?![\d/-]|[., ]\d)")
# what every phone number the matcher should see has: a "+" before a digit, or nine digits or more with
# spaces or brackets only (dates and amounts have dots and commas): the gate of the phone matcher
PHONE_GATE = regex.compile(r"\+\s?\(?\d|(?<![\d.,/-])\(?\d{2,3}\)?(?:\s?\d){7,}")
# a phone number in a country's national layout: its trunk "0" or its area code in brackets, then groups of digits
# ("01632 960 555", "01 42 68 53 00", "(21) 3456-7890"); a phone only when valid in one of the countries the
# rules name (nameid.phone_regions, checked by phonenumbers)
# (no look-behind: the start is checked after, by NATIONAL_BEFORE; a literal first character is much faster)
NATIONAL_PHONE = regex.compile(r"(?:0\d{1,4}|\(0?\d{2,4}\))[ -]?\d{2,5}(?:[ -]\d{2,4}){0,3}(?![\w-]|[.,/]\d| \d)")
NATIONAL_BEFORE = regex.compile(r"(?:[\w.,/+-]|\d[ .])$")  # what may not stand just before such a number
NATIONAL_DIGITS = (10, 11)  # how many digits such a number has
# a registration's number after the bare noun "número"/"number" (no act noun): six digits or more, no "/" or "."
LONG_PLAIN_NUMBER = regex.compile(r"\d{6,}")
BARE_NUMBER_NOUN = regex.compile(r"(?i)(?:número|number)(?![\p{L}])")
# a number and its year ("4/2024"): after an agreement's noun, the number its parties gave it ("Protocolo n.º 2/2023"),
# no treaty's protocol ("Protocolo n.º 36")
NUMBER_YEAR = regex.compile(r"\d{1,5}/(?:19|20)\d{2}")
# a web domain named after its noun ("o domínio lojaexemplo.pt", "the website example.co.uk"): the domain is
# the holder's; a domain inside an address or URL is taken whole by EMAIL and URL first
DOMAIN = regex.compile(r"(?<![\w.@/-])[\p{Ll}\d](?:[\p{Ll}\d-]*[\p{Ll}\d])?(?:\.[a-z0-9-]+)*\.(?:[a-z]{2,3}|com|info)(?![\w@/-]|\.\w)")
DOMAIN_GATE = regex.compile(r"[\p{Ll}\d]\.[a-z]{2,4}(?![\w@/-])")  # a domain's last dot, its top-level domain
# the words before a number that say it is no phone (a taxpayer, bank or card number)
NOT_A_PHONE_BEFORE = regex.compile(r"(?i)(?<![\p{L}])(?:NIF|NIPC|contribuinte|colectiva|coletiva|IBAN|NIB|CPF|CNPJ"
                                   r"|cidadão|identidade|passaporte)(?![\p{L}])[^\p{L}\d]{0,12}(?:n\.?\s?[º°o]\.?\s*)?$")
DECIMAL_AFTER = regex.compile(r"[.,]\d")
# a number that runs on, "4471 0093 2200": a phone is never a piece of a longer digit run
RUN_EDGE = regex.compile(r"\d[ .]?$")
# the Portuguese citizen card: civil number, check digit, version and check digit ("15263809 5 Y47")
CITIZEN_CARD = regex.compile(r"\b\d{8}\s?\d\s?[A-Z0-9]{2}\d\b")
# "número de beneficiário 0812 4471", "n.º de utente 123456789": a number of something a person holds
NUMBER_OF = regex.compile(r"(?i)(?<![\p{L}])(?:número|n\.?\s?º|nº) de \p{Ll}{3,15}(?: \p{Ll}{3,15})?\s*(?::\s*)?")
# Brazilian taxpayer numbers in their printed layouts (the check digits decide without a trigger word)
CPF = regex.compile(r"(?<![\d./-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d/-]|[.,]\d)")
CNPJ = regex.compile(r"(?<![\d./-])\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}(?![\d/-]|[.,]\d)")
# EU VAT numbers: a member state's prefix glued to the national number (checked by python-stdnum)
EU_VAT = regex.compile(r"\b(?:AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO"
                       r"|SE|SI|SK|XI)[ -]?[0-9A-Z]{8,12}\b")
# two capitals and a digit: what every EU VAT number has (most segments have none)
VAT_GATE = regex.compile(r"[A-Z]{2}[ -]?\d")
# the words just before an EU VAT number that make it one whatever its check digits
VAT_BEFORE = regex.compile(r"(?i)(?<![\p{L}])(?:IVA|VAT|NIF|TVA|USt-IdNr\.?|contribuinte)(?![\p{L}])[^\p{L}\d]{0,12}"
                           r"(?:n\.?\s?[º°o]\.?\s*|number\s*|no\.\s*)?$")
# a citation of the Official Journal, "JO L 54 de 2.3.2018, p. 4", "Jornal Oficial da União Europeia C 12 de
# 5 de março de 2019": public, its date included (a publication date identifies no one)
OFFICIAL_JOURNAL = regex.compile(
    r"(?<![\p{L}])(?:JO|Jornal Oficial(?:\s+d[aoe]s?\s+(?:União Europeia|Comunidades Europeias))?)\s*"
    r"(?:n\.?\s?[º°o]\.?\s*)?(?:[LC]\s*)?\d+(?:\s?[A-Z](?![\p{L}]))?\s*,?\s+(?:de\s+)?"
    r"(?:\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,2}\.?\s+de\s+\p{L}+\s+de\s+\d{4})"
    r"(?:\s*,\s*(?:p|pp)\.\s*\d+(?:\s*[-–]\s*\d+)?)?")
# the number of an EU act, whatever noun governs it and however many stand in a list: after the act's
# legal order in brackets, "(UE) n.o 1060/2010", "(CE, Euratom) 2017/855", or with the order glued on,
# "2006/112/CE", "2019/1234/UE"
EU_ACT = regex.compile(
    r"\((?:UE|CE|CEE|Euratom|CECA|EU|EC|EEC)(?:\s*,\s*(?:UE|CE|CEE|Euratom|CECA))*\)\s*(?:n\.?\s?[º°o]s?\.?\s*)?"
    r"(?P<num>\d{1,4}/\d{1,4})(?![\d/])"
    r"|(?<![\d/])(?P<num2>(?:19|20)?\d{2}/\d{1,4}/(?:UE|CE|CEE|PESC|JAI|EU|EC|EEC|CFSP))(?![\p{L}])")
# an EU document's number in square brackets after its title ("... do Acordo EEE [2019/1370]")
EU_DOCUMENT = regex.compile(r"\[(?P<num>(?:19|20)\d{2}/\d{1,4})\]")
# a lawyer's registration, "OAB/SP 123.456", "OAB-RJ n.º 98765": the number is personal, the bar section is not
OAB = regex.compile(r"(?<![\p{L}])OAB\s?[/-]?\s?[A-Z]{2}\s*(?:,\s*)?(?:n\.?\s?[º°o]\.?\s*|sob o n\.?\s?[º°o]\.?\s*)?"
                    r"(?P<num>\d{1,3}(?:\.\d{3})+|\d{3,7})(?:-?[A-Z])?(?![\d])")
# a nine-digit number in groups of three (NIF, NIPC, phone layouts), which MONEY would take for an amount
NINE_DIGITS = regex.compile(r"^\d{3}[ .]\d{3}[ .]\d{3}$")
TWO_DIGITS = regex.compile(r"\d\D*\d")
DIGIT = regex.compile(r"\d")
MONEY = regex.compile(r"^\d{1,3}(?:[.\s]\d{3})+(?:,\d+)?$")
# an amount after its currency's ISO code ("EUR 1 250 000", "CHF 35,50"): the code's letters are read in babel's list
CURRENCY_AMOUNT = regex.compile(r"(?<![\p{L}])(?P<cur>[A-Z]{3})\s(?:\d{1,3}(?:[.\s]\d{3})+|\d+)(?:,\d+)?")
# a period of years ("2015-2019", "2015-19", "2020–2024"): a time span, never an identifier
YEAR_SPAN = regex.compile(r"(?:1[89]|20)\d{2}\s?[-–]\s?(?:(?:1[89]|20)\d{2}|\d{2})(?![\d/-])")
# a phone's extension in brackets after it ("(ext. 22)", "(extensão 204)", "(ramal 31)")
EXTENSION_WORD = r"(?:ext\.|extens[ãa]o|extension|ramal)\s*\d{1,5}"
PHONE_EXTENSION = regex.compile(rf"\s*\({EXTENSION_WORD}\)")  # (in brackets only: after a comma the gold sets disagree)
# an ordinal ("12.º", "405.º"): an article's or a floor's number, never a code ("sob o artigo 12.º do Código Civil")
ORDINAL_CODE = regex.compile(r"\d{1,4}\.?[º°ª]")
# a property's tax register before an article's number: the number is the property's entry, whatever its layout
# ("inscrito na matriz predial rústica sob o artigo 56.º", "artigo matricial 312.º")
TAX_REGISTER_BEFORE = regex.compile(r"(?i:matriz|matricial)[^.;:]{0,50}$")
# a code after a trigger: letters/digits with - / . inside (a space before a digit, or before a letter and a digit:
# "ES B12345678", a VAT number's country code), at least two digits; an area code in brackets
# before it ("(853) 2833 1746") and a check digit in brackets after it ("1284719(3)") belong to it
CODE = regex.compile(r"(?:\(\+?\d{1,4}\)\s?)?(?=[\p{L}\d./ -]*\d[\p{L}\d./ -]*\d)[\p{Lu}\d][\p{L}\d]*"
                     r"(?:(?:[./-]| (?=\d|\p{Lu}\d))[\p{L}\d]+)*(?:\(\d\))?")
# a document's number of one digit, with a letter or not ("Recibo n.º 4", "Fatura n.º 7-A"), nothing after it
ONE_DIGIT = regex.compile(r"\d(?:-?[A-Z])?(?![\p{L}\d]|[./-][\p{L}\d]|\s?[º°ª])")
COUNTRY_PREFIX = regex.compile(r"[A-Z]{2}\s?(?=\d)")  # a VAT number's country code
# the words between the codes of a list ("A1234567, B7654321 e C1122334"), and how many may follow the first
LIST_JOIN = regex.compile(r"\s*,\s*|\s+(?:e|ou|and|or)\s+")
MOST_LISTED = 5


def _shape(code: str) -> str:
    """A code's layout: letters as A, digits as 9 (``EJ4471093`` -> ``AA9999999``)."""
    return "".join("A" if ch.isalpha() else "9" if ch.isdigit() else ch for ch in code)


# a Portuguese court case number: number/year, a digit and the court's letters, the appeal's suffixes
# ("2417/22.8T8LSB.L1-4", "874/23.1PBCBR", "0287/14.0BECBR"): a proceeding's identifier, whatever noun governs it
# ("recurso n.º 1234/22.0T8PRT.P1" is no law's number)
PT_CASE_NUMBER = regex.compile(r"(?<![\d/.])\d{1,6}/\d{2}\.\d[A-Z]{1,6}\d?[A-Z0-9]*(?:\.[A-Z]\d?[A-Z0-9]*)*(?:-[A-Z0-9]{1,3})?"
                               r"(?![\p{L}\d])")
# a Spanish mercantile registry entry after its volume word: volume, folio and sheet ("tomo 9.211, folio 120,
# hoja V-14522"): the company's registration
ES_REGISTRY = regex.compile(r"(?<=(?i:tomo)\s)\d[\d.]*,\s*(?i:folio)\s+\d+,\s*(?i:hoja)\s+[A-Z]{1,2}-?\d+")
# foreign car plates after the word for a plate, a nationality between: Spanish (four digits, three consonants)
# and French (two letters, three digits, two letters) layouts ("matrícula espanhola 4821 KZT")
FOREIGN_PLATE = regex.compile(r"(?i:matr[ií]cula|plate|registration)(?:\s+\p{Ll}+)?\s+(?P<p>\d{4}\s?[BCDFGHJKLMNPRSTVWXYZ]{3}"
                              r"|[A-Z]{2}-\d{3}-[A-Z]{2})(?![\p{L}\d-])")
MAILBOX_WORDS = regex.compile(r"[._+\d-]+")  # the words of an e-mail box's name ("ana.rocha", "j_silva2")
CASE_NUMBER_GATE = regex.compile(r"/\d\d\.\d[A-Z]")  # what every such number holds
# a Portuguese invoice, receipt or credit note number: the document type, its series, "/" and the number
# ("FT 2025A/118", "FR SERIE9/37", "NC B/12")
INVOICE = regex.compile(r"(?<![\p{L}\d])(?:FT|FR|FS|RC|NC|ND|GT|GR|FA|VD)\s[A-Z0-9]+(?:[/-][A-Z0-9]+)*/\d+(?![\d/])")
# a registry presentation, its abbreviation, number and maybe date ("AP. 2117 de 2015/06/30", "Ap. 7/20080915"):
# the entry that records a company's or a property's act (the number and date are the identifier, as the gold's
# contracts halves mark it, not the abbreviation)
REGISTRY_PRESENTATION = regex.compile(r"(?<![\p{L}])(?:AP|Ap)\.\s?(?P<num>\d{1,5}(?:/(?:19|20)\d{6}"
                                      r"|\s+(?:de|of)\s+(?:19|20)\d{2}/\d{2}/\d{2})?)(?![\d/])")
# a card's number printed masked but its last four digits ("**** **** **** 4417", "XXXX-XXXX-XXXX-0931")
MASKED_CARD = regex.compile(r"(?<![*\w])(?:[*xX•]{4}[ -]?){3}\d{4}(?!\d)")
# an identifier of eleven digits or more in spaced groups after its trigger ("NISS 20 006 371 449"): no amount
# when no currency follows
LONG_SPACED_DIGITS = 11
# a Portuguese car plate, in its four layouts ("12-AB-34", "AB-12-CD", "12-34-AB", "AB-12-34")
PLATE = regex.compile(r"(?<![\p{L}\d-])(?:\d{2}-[A-Z]{2}-\d{2}|[A-Z]{2}-\d{2}-[A-Z]{2}|\d{2}-\d{2}-[A-Z]{2}"
                      r"|[A-Z]{2}-\d{2}-\d{2})(?![\p{L}\d-])")
# a user name on a social network or messaging service ("@maria.lopes", "«@joao_99»")
HANDLE = regex.compile(r"(?<![\w.@])@[A-Za-z0-9_][A-Za-z0-9_.]{1,28}[A-Za-z0-9_]")
# what may stand between a trigger and its code
# (a word of the gap ends where a letter does not follow: "n.º AU-0045" keeps its "A")
GAP = r"(?:\s*(?:[:ºª°.]|n\.?\s?[º°o]\.?|n\.?º|nº|no\.|(?:número|number|no|de|do|da|o|a|é|sob|under|the|is)(?![\p{L}])|:)\s*){0,4}\s*"


@cache
def currency_codes() -> frozenset[str]:
    """The ISO 4217 codes of currencies (babel's CLDR list)."""
    from babel.numbers import list_currencies

    return frozenset(list_currencies())


def bracketed_phones(text: str) -> list[tuple[int, int]]:
    """Phones written with their country calling code in brackets and no "+" ("(853) 2833 1746")."""
    if "(" not in text:
        return []
    return [(m.start(), m.end()) for m in PHONE_BRACKETED_CC.finditer(text)
            if phone_valid(m.group("cc") + m.group("num"))]


@register("nameid")
class NameIdRecognizer(Recognizer):
    assigns = ("NAMEID", "PUBLIC_ID")

    def _web_category(self, address: str) -> str:
        """PUBLIC_ID for a web or e-mail address under a government's or public international body's domain; an
        e-mail box named by a person's name there is the person's (``rui.sousa@gov.pt``; ``securite@mer.gouv.fr`` is
        an office's)."""
        host = address.split("://", 1)[-1].split("/", 1)[0].lower()
        if "@" in host and any(len(w) > 2 and self.lex.is_name(w) for w in MAILBOX_WORDS.split(host.split("@")[0])):
            return "NAMEID"
        return "PUBLIC_ID" if self.public_domain.search(host) else "NAMEID"

    def __init__(self, rules, lex, options=None) -> None:
        super().__init__(rules, lex, options)
        r = rules["nameid"]
        self.public_domain = regex.compile(rf"[./@](?:{alternation(r['public_domains'])})(?=[./:]|$)")
        self.phone_regions = tuple(r.get("phone_regions", ()))
        # a domain after its noun, a few lower-case words between ("no sítio de internet lojaexemplo.pt")
        self.domain_after = regex.compile(rf"(?<![\p{{L}}])(?i:{alternation(r['domain_nouns'])})(?:\s+\p{{Ll}}+){{0,2}}?\s+"
                                          rf"(?P<d>{DOMAIN.pattern})")
        self.domain_keys = tuple({w.lower()[:4] for w in r["domain_nouns"]})
        # phrases that say a registration number follows ("registada sob o número", "pessoa colectiva n.º"):
        # read before the public nouns, whose "número" they hold
        self.phrase_re = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(r.get('id_phrases', []))})(?![\p{{L}}]){GAP}",
                                       regex.IGNORECASE)
        # every phrase starts with one of these (a cheap substring test spares most segments the pattern)
        self.phrase_keys = tuple({w.lower()[:5] for w in r.get("id_phrases", [])})
        self.trigger_re = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(r['triggers'])})(?![\p{{L}}]){GAP}",
                                        regex.IGNORECASE)
        self.number_re = regex.compile(rf"(?<![\p{{L}}])(?:{alternation(r['number_words'])})(?![\p{{L}}])\s*",
                                       regex.IGNORECASE)
        self.public = {fold(w) for w in r["public_nouns"]}
        self.agreement_words = {fold(w) for w in rules["agreement_nouns"]}
        # (the case-blind words each of those patterns opens with, read in ``Segment.folded``: cheap gates)
        self.gates = {k: case_blind_gate(r[k]) for k in ("triggers", "number_words", "public_nouns")}
        self.document_before = regex.compile(rf"(?<![\p{{L}}])(?i:{alternation(r['document_nouns'])})(?![\p{{L}}])"
                                             r"[^.;:\n\d]{0,40}$")
        self.document_keys = tuple({w.lower()[:5] for w in r["document_nouns"]})  # (a cheap gate)
        self.document_one = regex.compile(
            rf"(?<![\p{{L}}])(?i:{alternation(r['document_nouns'])})(?![\p{{L}}])[^.;:\n\d]{{0,40}}?(?<![\p{{L}}])"
            rf"(?i:{alternation(r['number_words'])})(?![\p{{L}}])\s*(?P<num>{ONE_DIGIT.pattern})")
        # an act's number after "n.º" in its title: a capitalized act noun earlier in the phrase and the number
        # in the acts' layout, number/year ("Decisão do Comité Misto do EEE n.o 12/2019")
        self.act_number = Gated(regex.compile(
            rf"(?<![\p{{L}}])(?:{alternation(numbered_act_nouns(rules))})(?![\p{{L}}])[^.;:\n]{{0,90}}?"
            rf"(?<![\p{{L}}])(?:n\.?\s?[º°o]s?\.?|nº)\s*(?P<num>\d{{1,4}}/(?:19|20)?\d{{2}})(?![\d/])"),
            literal_gate(alternation(numbered_act_nouns(rules))))
        self.month_after = regex.compile(rf"\s+de\s+(?i:{alternation(rules['date']['months'])})(?![\p{{L}}])")
        self.public_re = regex.compile(
            rf"(?<![\p{{L}}])(?:{alternation(r['public_nouns'])})(?:-\p{{L}}+)?\s*(?:\([^)]{{1,12}}\)\s*)?{GAP}"
            r"((?:(?-i:\p{Lu}{1,5})/)?\d[\d./-]*\d|\d)(?!\d)(?!\s\d{2,})"
            # (digits in spaced groups are an identifier's layout: "com o número 161 2023 0045 8832"; a day before
            # its month is a date's: "por decisão de 3 de abril de 2024")
            rf"(?!\s+de\s+(?:{alternation(rules['date']['months'])})(?![\p{{L}}]))", regex.IGNORECASE)

    def find(self, seg: Segment) -> list:
        t = seg.text
        out = []

        taken = bytearray(len(t) + 1)  # characters of the mentions in ``out``: a check in time of the span

        def add(s: int, e: int, cat: str, rule: str, score: float = 1.0) -> None:
            if e > s and cat == "NAMEID" and taken.find(1, s, e) >= 0 and COUNTRY_PREFIX.match(t, s):
                # (a VAT number's country code before digits found first as a phone: "IVA DE 287 114 906")
                inner = [m for m in out if m.start < e and s < m.end]
                if len(inner) == 1 and inner[0].start == COUNTRY_PREFIX.match(t, s).end() and inner[0].end == e:
                    out.remove(inner[0])
                    taken[s:e] = b"\x00" * (e - s)
            if rule.startswith("phone") and (x := PHONE_EXTENSION.match(t, e)):
                e = x.end()  # (a phone's extension is its part: "265 541 390 (ext. 22)")
            if e > s and taken.find(1, s, e) < 0:
                out.append(self.mention(seg, s, e, cat, rule, score=score))
                taken[s:e] = b"\x01" * (e - s)

        if "@" in t:
            for m in EMAIL.finditer(t):
                add(m.start(), m.end(), self._web_category(m.group()), "email")
        if "://" in t or "www." in t:
            for m in URL.finditer(t):
                add(m.start(), m.end(), self._web_category(m.group()), "url")
        low = t.lower()  # (once: not once per key)
        if DOMAIN_GATE.search(t) and any(k in low for k in self.domain_keys):
            for m in self.domain_after.finditer(t):
                add(m.start("d"), m.end("d"), self._web_category(m.group("d")), "domain")
        if "@" in t:
            for m in HANDLE.finditer(t):
                add(m.start(), m.end(), "NAMEID", "handle")
        if DIGIT.search(t) and any(k in low for k in self.document_keys):
            for m in self.document_one.finditer(t):  # (a private document's number of one digit: "Recibo n.º 4")
                add(m.start("num"), m.end("num"), "NAMEID", "trigger:document", 0.8)
        if not TWO_DIGITS.search(t):  # every pattern below needs two digits at least (most segments have none)
            return out
        self._checked_shapes(t, add)
        self._phones(t, add)
        if "0" in t or "(" in t:
            self._national_phones(t, add)
        self._after_words(t, add, seg.folded)
        return out

    def _checked_shapes(self, t: str, add) -> None:
        """Identifiers whose layout and check digits say what they are: IBAN, NIB, citizen card, CPF, CNPJ, EU
        VAT, a lawyer's OAB number."""
        for m in IBAN.finditer(t):
            if iban_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "iban:mod97")
        for m in NIB.finditer(t):
            if nib_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "nib:check")
        for m in CITIZEN_CARD.finditer(t):
            add(m.start(), m.end(), "NAMEID", "citizen_card:check-digit" if citizen_card.is_valid(m.group())
                else "citizen_card", 1.0 if citizen_card.is_valid(m.group()) else 0.8)
        shapes = ((CPF, "cpf"), (CNPJ, "cnpj")) if "-" in t else ()
        if VAT_GATE.search(t):
            shapes += ((EU_VAT, "vat"),)
        for pattern, rule in shapes:
            for m in pattern.finditer(t):
                if checked_identifier(m.group()) == rule:
                    add(m.start(), m.end(), "NAMEID", f"{rule}:check-digit")
                elif rule == "vat" and VAT_BEFORE.search(t, max(0, m.start() - 30), m.start()):
                    add(m.start(), m.end(), "NAMEID", "vat:trigger", 0.8)
        for m in POSTAL_ITEM.finditer(t) if POSTAL_GATE.search(t) else ():
            if s10_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "postal-item:check-digit")
        if "OAB" in t:
            for m in OAB.finditer(t):
                add(m.start("num"), m.end("num"), "NAMEID", "oab")
        if "/" in t and CASE_NUMBER_GATE.search(t):
            for m in PT_CASE_NUMBER.finditer(t):
                add(m.start(), m.end(), "NAMEID", "case_number")
        if "/" in t:
            for m in INVOICE.finditer(t):
                add(m.start(), m.end(), "NAMEID", "invoice")
        if "PT" in t:
            for m in CPE.finditer(t):
                add(m.start(), m.end(), "NAMEID", "cpe")
        if "-" in t:
            for m in PLATE.finditer(t):
                add(m.start(), m.end(), "NAMEID", "car_plate")
        if "atr" in t or "late" in t or "egistration" in t:
            for m in FOREIGN_PLATE.finditer(t):
                add(m.start("p"), m.end("p"), "NAMEID", "car_plate:foreign")
        if "folio" in t:
            for m in ES_REGISTRY.finditer(t):
                add(m.start(), m.end(), "NAMEID", "registry:es")
        if "AP." in t or "Ap." in t:
            for m in REGISTRY_PRESENTATION.finditer(t):
                add(m.start("num"), m.end("num"), "NAMEID", "registry:presentation")
        if "***" in t or "XXXX" in t or "xxxx" in t or "••••" in t:
            for m in MASKED_CARD.finditer(t):
                add(m.start(), m.end(), "NAMEID", "card:masked")

    def _national_phones(self, t: str, add) -> None:
        """Phones in a national layout that the PT matcher does not read: valid in one of ``phone_regions``."""
        for m in NATIONAL_PHONE.finditer(t):
            digits = sum(ch.isdigit() for ch in m.group())
            if digits in NATIONAL_DIGITS and not NATIONAL_BEFORE.search(t, max(0, m.start() - 2), m.start()) \
                    and not NOT_A_PHONE_BEFORE.search(t, max(0, m.start() - 30), m.start()) \
                    and any(phone_valid_in(m.group(), r) for r in self.phone_regions):
                add(m.start(), m.end(), "NAMEID", "phone:national")

    @staticmethod
    def _phones(t: str, add) -> None:
        """Phone numbers of any country in the layouts people type, "(+351) 912 345 678", "+44 20 7946 0958"."""
        if PHONE_GATE.search(t):
            # (the matcher reads a window around each candidate: over a whole segment it costs ten times more)
            for g in PHONE_GATE.finditer(t):
                if NOT_A_PHONE_BEFORE.search(t, max(0, g.start() - 30), g.start()):
                    continue  # "NIF 503 004 529": a trigger says what the number is
                a = max(0, g.start() - 8)
                for m in phonenumbers.PhoneNumberMatcher(t[a:g.end() + 24], "PT", leniency=phonenumbers.Leniency.VALID):
                    s, e = a + m.start, a + m.end
                    if t[s] == "(" and ")" not in t[s:e]:
                        s += 1  # (a bracket around the whole number is no area code's: "utente (284 615 903)")
                    # "212 345 678,00 euros" is an amount; "481 933 019 557" no phone inside a longer run
                    if not DECIMAL_AFTER.match(t, e) and not RUN_EDGE.search(t, 0, s) \
                            and not regex.match(r"[ .]?\d", t[e:e + 2]):
                        add(s, e, "NAMEID", "phone")
        for m in PHONE_INTL.finditer(t):
            # ("0035 0123 4567 …", "AU-0045.1123.77": digits that open with 00 in a code or account are no phone;
            # a "+" says it is one, even with a digit too many)
            if not CODE_PREFIX_BEFORE.search(t, max(0, m.start() - 4), m.start()) \
                    and (m.group().startswith("+") or phone_valid(m.group())):
                add(m.start(), m.end(), "NAMEID", "phone:international")
        for s, e in bracketed_phones(t):
            add(s, e, "NAMEID", "phone:bracketed-country-code")
        for m in PHONE_PT.finditer(t):
            add(m.start(), m.end(), "NAMEID", "phone:pt")

    def _after_words(self, t: str, add, folded: str) -> None:
        """Public identifiers (the Official Journal, EU acts, numbers after a public noun) first, so that
        "Decreto-Lei n.º 487/99" never becomes a NAMEID; then the codes a trigger word or phrase announces,
        and NIFs with a valid check digit."""
        if "J" in t:
            for m in OFFICIAL_JOURNAL.finditer(t):
                add(m.start(), m.end(), "PUBLIC_ID", "official_journal")
        low = t.lower()
        # (overlapped: "inscrito sob o artigo 55" holds two phrases, and the code follows the second)
        for m in self.phrase_re.finditer(t, overlapped=True) if any(k in low for k in self.phrase_keys) else ():
            self._code_after(t, m.end(), add, 2, amounts_too=True)  # ("inscrito na matriz sob o artigo 55")
        if "/" in t:
            for m in EU_ACT.finditer(t):
                g = "num" if m.group("num") else "num2"
                add(m.start(g), m.end(g), "PUBLIC_ID", "eu_act")
        for m in self.public_re.finditer(t) if self.gates["public_nouns"].search(folded) else ():
            # (a bare "número" before a long plain run of digits names a registration, not a law's subdivision:
            # "com o número 09876543")
            bare = LONG_PLAIN_NUMBER.fullmatch(m.group(1)) and BARE_NUMBER_NOUN.match(t, m.start(), m.start(1)) \
                or NUMBER_YEAR.fullmatch(m.group(1)) and fold(m.group().split()[0]) in self.agreement_words
            add(m.start(1), m.end(1), "NAMEID" if bare else "PUBLIC_ID", "trigger:number" if bare else "public_noun")
        for m in self.act_number.finditer(t) if "/" in t else ():
            add(m.start("num"), m.end("num"), "PUBLIC_ID", "act_number")
        for m in EU_DOCUMENT.finditer(t) if "[" in t else ():
            add(m.start("num"), m.end("num"), "PUBLIC_ID", "eu_document")
        for m in self.trigger_re.finditer(t) if self.gates["triggers"].search(folded) else ():
            self._code_after(t, m.end(), add, 3)
        for m in NUMBER_OF.finditer(t) if " de " in t and ("º" in t or "mero" in t) else ():
            self._code_after(t, m.end(), add, 4, "trigger:number")
        for m in self.number_re.finditer(t) if self.gates["number_words"].search(folded) else ():
            # (a private document's number, however short, after its noun: "Recibo de renda n.º 58")
            short = self.document_before.search(t, max(0, m.start() - 40), m.start())
            # (digits in thousands spaced after a number sign are a register's number, no amount, unless a currency
            # follows: "cédula profissional n.º 58 217"; dotted ones are a law's or a case's: "n.º 971.113")
            code = CODE.match(t, m.end())
            sign = NUMBER_SIGN_ONLY.fullmatch(m.group().strip()) is not None
            self._code_after(t, m.end(), add, 1 if short else 4, "trigger:document" if short else "trigger:number",
                             amounts_too=sign and code is not None and SPACED_THOUSANDS.fullmatch(code.group()) is not None
                             and not CURRENCY_AFTER.match(t, code.end()))
        for m in NIF.finditer(t):
            if nif_valid(m.group()):
                add(m.start(), m.end(), "NAMEID", "nif:check-digit")

    def _code_after(self, t: str, at: int, add, min_len: int, rule: str = "trigger", amounts_too: bool = False) -> None:
        """The code a trigger word announces: letters and digits, two digits at least, not an amount (a
        nine-digit number in threes is a NIF or phone layout, twelve digits or more are no amount in a text, and
        a code that passes a check is no amount)."""
        c = CODE.match(t, at)
        if not c and t.startswith("(", at):  # the code in brackets after its trigger: "utente do SNS (705 118 342)"
            c = CODE.match(t, at + 1)
            if not c or not t.startswith(")", c.end()):
                return
        if not c:
            return
        code = c.group()
        if len(code.replace(" ", "")) < min_len or sum(ch.isdigit() for ch in code) < 2 \
                or self.month_after.match(t, c.end()):
            return  # (a day before its month is a date's: "carta registada de 20 de março de 2025")
        if YEAR_SPAN.match(t, c.start()) or ORDINAL_CODE.fullmatch(code) \
                and not TAX_REGISTER_BEFORE.search(t, max(0, c.start() - 60), c.start()):
            return
        checked = checked_identifier(code)
        if not checked and any((cur := CURRENCY_AMOUNT.fullmatch(t, k, c.end())) and cur.group("cur") in currency_codes()
                               for k in range(max(0, c.start() - 2), c.start() + 1)):
            return  # "o montante de referência é de EUR 1 250 000" (or "de NOK 5 000": the gap read "no"): an amount
        if MONEY.match(code) and not checked and not NINE_DIGITS.match(code) and not amounts_too \
                and (sum(ch.isdigit() for ch in code) < LONG_SPACED_DIGITS or CURRENCY_AFTER.match(t, c.end())):
            return  # (a registration phrase names a number, whatever its layout: "marca n.º 712 884")
        add(c.start(), c.end(), "NAMEID", f"{rule}:check-digit" if checked else rule, 1.0 if checked else 0.8)
        # a list of codes of one layout after the trigger: "passaportes n.os EJ4471093 e EK0836215"
        for _ in range(MOST_LISTED):
            nxt = LIST_JOIN.match(t, c.end())
            c2 = nxt and CODE.match(t, nxt.end())
            if not c2 or _shape(c2.group()) != _shape(code):
                break
            add(c2.start(), c2.end(), "NAMEID", f"{rule}:list", 0.8)
            c = c2

    def validate_result(self, text: str) -> bool:
        return bool(checked_identifier(text)) or iban_valid(text) or nib_valid(text) or bool(EMAIL.fullmatch(text))
