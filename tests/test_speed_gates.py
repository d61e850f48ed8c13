"""The cheap pre-checks the speed work added find what the full patterns find: each is a necessary condition of
its pattern, so a text it turns away holds no match (examples written for the test)."""

from __future__ import annotations

import re

import pytest
import regex
from paranon.align.english import (
    MAYBE_DIGIT,
    PT_POSTCODE,
    PT_POSTCODE_GATE,
    UK_POSTCODE,
    UK_POSTCODE_GATE,
    US_ZIP,
    US_ZIP_GATE,
    EnglishRecognizer,
    english_data,
)
from paranon.anonymize.engine import load_rules
from paranon.anonymize.recognizer import gate_fold
from paranon.anonymize.recognizers.date import foreign_months


@pytest.fixture(scope="module")
def english() -> EnglishRecognizer:
    return EnglishRecognizer()


def test_every_case_blind_match_of_a_month_letter_is_that_letter_case_folded():
    """The foreign-date gate reads ``gate_fold(text)``: every character that matches a month's letter case-blind
    (``K`` the Kelvin sign, ``ſ`` the long s, ``İ``, capitals) is that letter there (``str.lower`` misses ``ſ``,
    ``str.casefold`` gives ``İ`` a combining dot)."""
    letters = sorted({c for m in foreign_months(load_rules("pt")["date_foreign_locales"]) for c in m})
    any_letter = regex.compile("[" + "".join(regex.escape(c) for c in letters) + "]", regex.IGNORECASE)
    folds = {c.casefold() for c in letters}
    odd = [hex(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and any_letter.fullmatch(chr(cp))
           and gate_fold(chr(cp)) not in folds]
    assert odd == []


FOREIGN_DATES_ANY_CASE = [
    ("signed on 7 MÄRZ 2025 in Berlin", "7 MÄRZ 2025"),
    ("fait le 3 ſeptembre 2024 à Lyon", "3 ſeptembre 2024"),  # (a long s: case-blind, it is an s)
    ("executed this 22nd day of March 2023", "22nd day of March 2023"),
    ("signé le 3 AVRİL 2024 à Paris", "3 AVRİL 2024"),  # (a dotted capital I: case-blind, it is an i)
]


@pytest.mark.parametrize("text,date", FOREIGN_DATES_ANY_CASE)
def test_a_foreign_date_in_any_case_passes_the_gate(anonymizer, text, date):
    found = [m.text for m in anonymizer.recognize_document([text])[0] if m.category == "DATE"]
    assert found == [date]


# an English address whose pattern now runs only where its head word, a digit or a postcode's dash is
ENGLISH_ADDRESSES = [
    ("The office is at 14 Harbour Street, Leith, Edinburgh EH6 6QR.", "14 Harbour Street, Leith, Edinburgh EH6 6QR"),
    ("Registered office: Avenida da Liberdade 110, 1269-046 Lisboa.", "Avenida da Liberdade 110, 1269-046 Lisboa"),
    ("Ship to 500 Main Street, Springfield, IL 62701.", "500 Main Street, Springfield, IL 62701"),
]


@pytest.mark.parametrize("text,address", ENGLISH_ADDRESSES)
def test_an_english_address_is_found_whole(english, text, address):
    assert [text[h.start:h.end] for h in english.find(text) if h.category == "ADDRESS"] == [address]


def test_the_target_identifiers_are_the_same_when_asked_again(anonymizer):
    """``target_id_finder`` keeps its answers by text: asked again, the same identifiers (and no shared list to
    spoil: a tuple)."""
    from paranon.align.finish import target_id_finder

    find = target_id_finder(anonymizer)
    text = "Tax number 501 964 843, phone +44 20 7946 0958."
    first = find(text)
    assert first and find(text) == first and isinstance(first, tuple)
    assert sorted(text[s:e] for s, e, _ in first) == ["+44 20 7946 0958", "501 964 843"]


def _recognizer(anonymizer, name: str):
    return next(r for r in anonymizer.recognizers if type(r).__name__ == name)


# an acronym after an agreement's, code's or group's noun, in each of the pattern's layouts: the gate
# (a space or a bracket, then two capitals) is what every one holds just before its acronym
AGREEMENT_ACRONYMS = [
    "Os Estados da EFTA assinaram o acordo.",
    "Aplica-se o Código HSC de 2000.",
    "Cumpre as normas ISO e IEC aplicáveis.",
    "O Acordo Geral sobre Pautas Aduaneiras e Comércio (GATT de 1994) aplica-se.",
]


@pytest.mark.parametrize("text", AGREEMENT_ACRONYMS)
def test_an_acronym_after_an_agreement_noun_passes_its_gate(anonymizer, text):
    from paranon.anonymize.recognizers.public_text import SPACED_CAPS

    rec = _recognizer(anonymizer, "PublicTextRecognizer")
    found = list(rec.after_noun.pattern.finditer(text))
    assert found and SPACED_CAPS.search(text)
    assert all(text[m.start("acr") - 1] in " (" for m in found)


def test_every_space_regex_reads_is_a_space_for_the_literal_gates():
    """``literal_gate`` compiles with the standard library's ``re``: its ``\\s`` must take every character that
    ``regex``'s ``\\s`` takes, so that a gate of words and spaces stays a necessary condition."""
    import re

    fast, slow = re.compile(r"\s"), regex.compile(r"\s")
    missed = [hex(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF
              and slow.fullmatch(chr(cp)) and not fast.fullmatch(chr(cp))]
    assert missed == []


# texts with a gate's word in the middle, at the start, at the end, in capitals, and with none
LITERAL_GATE_TEXTS = [
    "Residente na Rua do Alecrim, 12, Lisboa.",
    "rua do Brasil, n.º 3, residente em Lisboa",
    "Sede: Avenida da Liberdade 110",
    "RUA DE SÃO BENTO, N.º 148",
    "The office is at 14 Harbour Street, Leith.",
    "Decisão do Comité Misto do EEE n.o 12/2019",
    "Regulamento (CE) n.o 1/2003 do Conselho",
    "Signed on 7 MÄRZ 2025 in Berlin, 3 septembre 2024",
    "Nada a assinalar neste parágrafo.",
    "",
]


def test_a_literal_gate_finds_what_its_pattern_compiled_by_regex_finds(anonymizer):
    """Every gate given to ``literal_gate`` in the recognizers: the same pattern under ``regex`` finds the same
    strings in the same places (literal words: both engines read them alike)."""
    import re

    held = [v for r in anonymizer.recognizers for v in list(vars(r).values()) + [p for _, p in getattr(r, "patterns", [])]]
    gates = [g for v in held for g in (getattr(v, "gates", ()) or (v,)) if isinstance(g, re.Pattern)]
    assert len(gates) >= 7
    found = 0
    for g in gates:
        twin = regex.compile(g.pattern)
        for text in LITERAL_GATE_TEXTS + [t.lower() for t in LITERAL_GATE_TEXTS] + [t.upper() for t in LITERAL_GATE_TEXTS]:
            found += bool(g.search(text))
            assert [m.span() for m in g.finditer(text)] == [m.span() for m in twin.finditer(text)], (g.pattern, text)
    assert found >= len(gates)  # (each gate finds something in the texts)


def test_every_case_blind_match_of_a_gated_head_letter_folds_to_that_letter():
    """The case-blind gates (``case_blind_gate``: numbered organs' heads, street words, law and article nouns, the
    identifiers' trigger, number and public nouns) read
    ``Segment.folded``: each character that matches one of their words' letters case-blind folds to it there."""
    from paranon.anonymize.recognizer import gate_fold

    rules = load_rules("pt")
    words = rules["organization"]["numbered_heads"] + rules["address_number_first_heads"] \
        + rules["address"]["fused_suffixes"] + rules["legal_reference"]["law_nouns"] \
        + rules["legal_reference"]["article_words"] + rules["nameid"]["triggers"] + rules["nameid"]["number_words"] \
        + rules["nameid"]["public_nouns"] + rules["date"]["months"]
    letters = sorted({c for w in words for c in w.split("ß")[0]})  # (the gate's words stop before a "ß")
    any_letter = regex.compile("[" + "".join(regex.escape(c) for c in letters) + "]", regex.IGNORECASE)
    folds = {gate_fold(c) for c in letters}
    odd = [hex(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and any_letter.fullmatch(chr(cp))
           and gate_fold(chr(cp)) not in folds]
    assert odd == []


# a numbered organ and a house number before its street word, in capitals, in lower case, as written
CASE_BLIND_HEADS = [
    ("A 2.ª SECÇÃO CÍVEL decidiu.", "OrganizationRecognizer", "numbered"),
    ("a 7ª Turma decidiu.", "OrganizationRecognizer", "numbered"),
    ("Bureau: 12 RUE des Tanneurs, Paris", "AddressRecognizer", "number_first"),
    ("Ufficio in 5 Via Garibaldi, Roma", "AddressRecognizer", "number_first"),
    ("Büro: HAUPTSTRASSE 5, Berlin", "AddressRecognizer", "fused"),
    ("Büro: Hauptstraße 5, Berlin", "AddressRecognizer", "fused"),
    ("Kantoor in Keizersgracht 12, Amsterdam", "AddressRecognizer", "fused"),
]


# a law, an article and a case cited in each case layout: every one passes its pattern's gate
LEGAL_GATES = [
    ("nos termos da LEI ORGÂNICA do Distrito Federal", "law"),
    ("conforme a Portaria MPS nº 204/2008", "law"),
    ("o ART. 5º da Constituição Federal", "article"),
    ("a Súmula 7 do STJ", "case"),
]


@pytest.mark.parametrize("text,rule", LEGAL_GATES)
def test_a_legal_citation_passes_its_gate(anonymizer, text, rule):
    from paranon.anonymize.recognizer import gate_fold

    rec = _recognizer(anonymizer, "LegalReferenceRecognizer")
    assert any(p.search(text) for r, p in rec.patterns if r == rule) and rec.gates[rule].search(gate_fold(text))


@pytest.mark.parametrize("text,name,pattern", CASE_BLIND_HEADS)
def test_a_case_blind_head_passes_its_gate(anonymizer, text, name, pattern):
    from paranon.anonymize.recognizer import gate_fold

    rec = _recognizer(anonymizer, name)
    assert list(getattr(rec, pattern).finditer(text)) and getattr(rec, pattern + "_gate").search(gate_fold(text))


# an identifier after a trigger, a number word and a public noun, in capitals and as written: each passes its gate
NAMEID_GATES = [
    ("TELEFONE: 212 345 678", "trigger_re", "triggers"),
    ("Contribuinte n.º 503 004 529", "trigger_re", "triggers"),
    ("Recibo N.º 58", "number_re", "number_words"),
    ("nos termos do ARTIGO 5", "public_re", "public_nouns"),
    ("Decreto-Lei n.º 487/99", "public_re", "public_nouns"),
]


@pytest.mark.parametrize("text", ["Lisboa, 3 de MARÇO de 2024", "em setembro de 2023", "a 1.º de Dez. de 2020"])
def test_a_written_date_passes_its_gate(anonymizer, text):
    from paranon.anonymize.recognizer import gate_fold

    rec = _recognizer(anonymizer, "DateRecognizer")
    assert rec.written.search(text) and rec.month_gate.search(gate_fold(text))


@pytest.mark.parametrize("text,pattern,gate", NAMEID_GATES)
def test_an_identifier_trigger_passes_its_gate(anonymizer, text, pattern, gate):
    from paranon.anonymize.recognizer import gate_fold

    rec = _recognizer(anonymizer, "NameIdRecognizer")
    assert getattr(rec, pattern).search(text) and rec.gates[gate].search(gate_fold(text))


def test_every_case_blind_match_of_a_trigger_letter_is_that_letter_gate_folded(english):
    """The English trigger's gate reads ``gate_fold(text)`` for its words folded: every character that matches
    a trigger word's character case-blind folds to what that character folds to (``K``, ``ſ``, ``İ``, ``ı`` too)."""
    ids = english_data()["identifiers"]
    chars = sorted({c for w in ids["document_nouns"] + ids["triggers"] for c in w})
    any_char = regex.compile("[" + "".join(regex.escape(c) for c in chars) + "]", regex.IGNORECASE)
    odd = []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF or not any_char.fullmatch(chr(cp)):
            continue
        odd += [(hex(cp), c) for c in chars if regex.fullmatch(regex.escape(c), chr(cp), regex.IGNORECASE)
                and gate_fold(chr(cp)) != gate_fold(c)]
    assert odd == []


TRIGGERED_CODES_ANY_CASE = [
    ("INVOICE NO. 4471 is attached.", "4471"),
    ("his ſort code is 40-47-84", "40-47-84"),  # (a long s: case-blind, it is an s)
    ("the Company Registration Number: 08123456", "08123456"),
    ("his ID CARD 12AB3456 issued in Lisbon", "12AB3456"),
    ("NıF 123456789 on file", "123456789"),  # (a dotless i: case-blind, it is an I)
]


@pytest.mark.parametrize("text,code", TRIGGERED_CODES_ANY_CASE)
def test_a_triggered_code_in_any_case_passes_the_gate(english, text, code):
    found = [text[h.start:h.end] for h in english._identifiers(text) if h.rule == "en:trigger"]
    assert found == [code]
    assert english.trigger.search(text) and english.trigger_gate.search(gate_fold(text))


# the gates compiled with the standard library's re are literal searches: the regex module finds the same
ENGLISH_GATE_TEXTS = [
    "Flat 3, 27 Rua Augusta, 1100-048 Lisboa",
    "18/f, block c, 22 science park road",
    "Avenida da Liberdade 110, 4th Floor",
    "Hauptstrasse 12, 8001 Zürich",
    "Siège: 12 rue de la Paix, 75002 Paris",
    "no address here, only 3 numbers",
]


@pytest.mark.parametrize("text", ENGLISH_GATE_TEXTS)
def test_a_literal_gate_finds_what_the_regex_module_finds(english, text):
    for gate in (english.level_gate, english.street_head_gate, english.fused_gate, english.number_first_gate,
                 english.edges.first_unit_gate, english.street_gate, english.body_head_gate):
        assert "\\p" not in gate.pattern
        for t in (text, text.lower()):
            assert bool(gate.search(t)) == bool(regex.compile(gate.pattern).search(t))


# an address written unit first ends its first part at a comma: without one, the unit pattern matches nowhere
NO_COMMA_UNITS = [
    "Room 2203 Tower 2 Lippo Centre 89 Queensway Admiralty",
    "18/F Block C Tianan Cyber Park Shenzhen 518067",
    "Flat 3; 27 Harbour Street; Leith",
]


@pytest.mark.parametrize("text", NO_COMMA_UNITS)
def test_a_unit_first_address_needs_a_comma(english, text):
    edges = english.edges
    assert not any(edges.first_unit.match(text, p) for p in range(len(text) + 1))
    with_commas = text.replace(";", ",").replace(" Tower", ", Tower").replace(" Block", ", Block")
    assert any(edges.first_unit.match(with_commas, p) for p in range(len(with_commas) + 1))


# each gate holds in every match of its pattern (fused streets' gate reads the lower-cased text)
GATED_ADDRESSES = [
    ("Siège: 12 rue de la Paix, 75002 Paris", "number_first"),
    ("sede: 5 via Roma, Milano", "number_first"),
    ("at 7 calle Mayor, Madrid", "number_first"),
    ("Avenida da Liberdade 110, Lisboa", "street_head"),
    ("on the 4th Floor of the building", "level"),
    ("Office: Hauptstrasse 12, Berlin", "fused"),
]


@pytest.mark.parametrize("text,pattern", GATED_ADDRESSES)
def test_an_address_pattern_matches_only_where_its_gate_does(english, text, pattern):
    assert getattr(english, pattern).search(text)
    gate = getattr(english, pattern + "_gate")
    assert gate.search(text.lower() if pattern == "fused" else text)


def test_every_digit_regex_reads_passes_the_postcode_gates():
    """The postcode gates (the standard library's ``re``) take every character ``regex`` reads as a digit, the
    Unicode digits ``re`` does not know included."""
    digit = regex.compile(r"\d")
    maybe = re.compile(MAYBE_DIGIT)
    assert [hex(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and digit.fullmatch(chr(cp))
            and not maybe.fullmatch(chr(cp))] == []


# a postcode's pattern matches only where its gate does (digits in other scripts too)
GATED_POSTCODES = [
    ("Edinburgh EH6 6QR, Scotland", UK_POSTCODE, UK_POSTCODE_GATE),
    ("London SW1A 1AA", UK_POSTCODE, UK_POSTCODE_GATE),
    ("Glasgow G2 \u0663AB", UK_POSTCODE, UK_POSTCODE_GATE),  # (an Arabic-Indic digit: regex reads a digit)
    ("Springfield, IL 62701", US_ZIP, US_ZIP_GATE),
    ("Austin, TX 78701-1234", US_ZIP, US_ZIP_GATE),
    ("Boston, MA \u0661\u0662\u0663\u0664\u0665", US_ZIP, US_ZIP_GATE),
    ("Avenida da Liberdade 110, 1269-046 Lisboa", PT_POSTCODE, PT_POSTCODE_GATE),
    ("Rua Nova 5, 4100-130 Porto", PT_POSTCODE, PT_POSTCODE_GATE),
    ("Rua Nova 5, \u0664\u0661\u0660\u0660-\u0661\u0663\u0660 Porto", PT_POSTCODE, PT_POSTCODE_GATE),
]


@pytest.mark.parametrize("text,pattern,gate", GATED_POSTCODES)
def test_a_postcode_matches_only_where_its_gate_does(text, pattern, gate):
    assert pattern.search(text)
    assert gate.search(text)


# each text's pattern matches nowhere, and its gate turns it away (the patterns are not run)
UNGATED_TEXTS = [
    ("Regulation (EU) 2016/679 of the Council", UK_POSTCODE_GATE),
    ("paid on 3 March 2024, 12 pages", US_ZIP_GATE),
    ("Decree-Law 12/2024 of 3-4 May", PT_POSTCODE_GATE),
]


@pytest.mark.parametrize("text,gate", UNGATED_TEXTS)
def test_a_text_without_a_postcode_is_turned_away_by_the_gate(text, gate):
    assert not gate.search(text)


def test_the_english_recognizer_reads_the_anonymizers_pt_rules_unchanged(anonymizer):
    """The finisher hands the anonymizer's rules to the English recognizer when they are pt.yaml's: after the
    anonymizer has run they are still what pt.yaml says (nothing writes into them)."""
    from paranon.align.finish import pt_rules_of
    from paranon.anonymize.engine import load_rules

    anonymizer.recognize_document(["Rua Augusta, n.º 12, 1100-048 Lisboa; NIF 501 964 843."])
    assert pt_rules_of(anonymizer) is anonymizer.rules
    assert anonymizer.rules == load_rules("pt")


# a date with its day in words, in any case: the pattern runs only where "day" or "of" and a month name is
# (the span starts at its day, as the gold guidelines draw it: no "the" or "this" before it)
WORD_DATES_ANY_CASE = [
    ("signed on the ninth day of October two thousand and twenty-four", "ninth day of October two thousand and twenty-four"),
    ("DONE THIS FIFTH DAY OF MAY 2021.", "FIFTH DAY OF MAY 2021"),
    ("agreed on the twenty-first of Sept. 2019 in Porto", "twenty-first of Sept. 2019"),
]


@pytest.mark.parametrize("text,date", WORD_DATES_ANY_CASE)
def test_a_date_in_words_passes_its_gate(english, text, date):
    assert [text[h.start:h.end] for h in english.find(text) if h.rule == "en:date-words"] == [date]
    assert english.word_dates.search(text) and english.word_dates_gate.search(gate_fold(text))
