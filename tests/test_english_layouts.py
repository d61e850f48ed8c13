"""English layouts the second line reads as one span: a deed's date with its numbers repeated in brackets or its
year "in the year ...", a body's name with a Portuguese place or its seat in it, a house number's letter or
repeat mark; a company name with its legal tail over a piece read as a person; a mention widened over its own
entity's words."""

from __future__ import annotations

import pytest
from paranon.align.english import EnglishRecognizer
from paranon.align.names import own_words
from paranon.align.transfer import Transferrer
from paranon.corpora.model import Mention

from paranon.text import fold


@pytest.fixture(scope="module")
def rec():
    return EnglishRecognizer()


def _hits(rec, text, category):
    return [text[h.start:h.end] for h in rec.find(text) if h.category == category]


@pytest.mark.parametrize("text, found, value", [
    # a number repeated in brackets, in digits or words, after the day, the month or the year
    ("that on the fifth (05) day of May (05) of the year two thousand and twenty-five (2025), in this city",
     "fifth (05) day of May (05) of the year two thousand and twenty-five (2025)", (5, 5, 2025)),
    ("paid on 7 (seven) June 2024 by transfer", "7 (seven) June 2024", (7, 6, 2024)),
    ("on the twenty-first (21st) day of March (03), two thousand and twenty-four (2024).",
     "twenty-first (21st) day of March (03), two thousand and twenty-four (2024)", (21, 3, 2024)),
    # the year after "in the year" or "of the year"
    ("Executed on the nineteenth day of February in the year two thousand and twenty-six.",
     "nineteenth day of February in the year two thousand and twenty-six", (19, 2, 2026)),
    ("Made this 4th day of July in the year 2025 at Faro", "4th day of July in the year 2025", (4, 7, 2025)),
    ("On the eleventh day of March of the year 2026, before me", "eleventh day of March of the year 2026",
     (11, 3, 2026)),
])
def test_a_deeds_date_is_one_span_with_its_brackets_and_year(rec, text, found, value):
    """(the words that lead to the day, "the", "this", are outside the date: the gold guidelines' span)"""
    assert [(text[h.start:h.end], h.value) for h in rec.find(text)] == [(found, value)]


@pytest.mark.parametrize("text, found", [
    ("the 1st day of June (see Annex 2) applies", "1st day of June"),   # a bracket that repeats no number
    ("from 3 March (inclusive) onwards", "3 March"),
    ("the 2nd day of May (Monday) at noon", "2nd day of May"),
])
def test_a_bracket_that_repeats_no_number_stays_out_of_the_date(rec, text, found):
    assert _hits(rec, text, "DATE") == [found]


@pytest.mark.parametrize("text, found", [
    # a Portuguese place with its particle inside a body's name
    ("registered at the Ponte de Lima Civil Registry Office under", "Ponte de Lima Civil Registry Office"),
    ("the Santa Maria da Feira Local Court ruled", "Santa Maria da Feira Local Court"),
    # the body's seat after "in"
    ("Legalisation: Consulate General of Portugal in Guangzhou, registration", "Consulate General of Portugal in "
     "Guangzhou"),
    # the officer in charge after "of the" is no part of the body
    ("at the Lisbon Private Notary's Office of the Notary Rui Dias, located", "Lisbon Private Notary's Office"),
    ("the Faro Land Registry Office of the Registrar Ana Lima certifies", "Faro Land Registry Office"),
])
def test_a_bodys_english_name_with_its_place(rec, text, found):
    assert _hits(rec, text, "ORGANIZATION") == [found]


@pytest.mark.parametrize("text, found", [
    ("registered office at Havenweg 31-B, 3089 JK Rotterdam, the Netherlands",
     "Havenweg 31-B, 3089 JK Rotterdam"),
    ("Bureau – 14 bis, rue des Tanneurs, 38000 Grenoble, France", "14 bis, rue des Tanneurs, 38000 Grenoble"),
    ("domiciled at 7 ter, avenue Jean Jaurès, 69007 Lyon, France", "7 ter, avenue Jean Jaurès, 69007 Lyon"),
])
def test_a_house_numbers_letter_or_repeat_mark_is_in_the_address(rec, text, found):
    assert _hits(rec, text, "ADDRESS") == [found]


@pytest.mark.parametrize("tgt, piece, whole", [
    ("Payments shall be made to account 123, with Commerzbank AG.", "Commerzbank", "Commerzbank AG"),
    ("goods supplied by Harrow & Sons Ltd under", "Harrow", "Harrow & Sons Ltd"),
    ("the seller, Kessler Maschinenbau GmbH, declares", "Kessler Maschinenbau", "Kessler Maschinenbau GmbH"),
])
def test_a_company_takes_in_the_one_piece_read_as_a_person(rec, tgt, piece, whole):
    """One entity's piece the steps took for a person inside what reads as a company: the company, its number."""
    s = tgt.index(piece)
    src = [Mention(s, s + len(piece), "PERSON", piece, "test", "test", entity=3)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.category, m.entity) for m in res.mentions] == [(whole, "ORGANIZATION", 3)]


@pytest.mark.parametrize("text, piece, source, whole", [
    ("please contact our colleague Ana Paula Mestre on 21", "Ana Paula", "Ana Paula Mestre", "Ana Paula Mestre"),
    ("– Company X, by J. Leão Baptista, lawyers", "Leão Baptista", "J. Leão Baptista", "J. Leão Baptista"),
    ("Members – Hélio Borges Sousa and Ana Dias.", "Borges Sousa", "Hélio Borges Sousa", "Hélio Borges Sousa"),
    # a capitalized word next to it that is not its entity's stays visible
    ("the Plaintiff Ana Paula Mestre said", "Ana Paula", "Ana Paula", "Ana Paula"),
    ("Ms Rita Lopes Ferreira replied", "Lopes Ferreira", "Lopes Ferreira", "Lopes Ferreira"),
])
def test_a_mention_takes_in_its_own_entitys_words_next_to_it(text, piece, source, whole):
    s = text.index(piece)
    m = Mention(s, s + len(piece), "PERSON", piece, "test", "test", entity=1)
    words = {1: {fold(w) for w in source.replace(".", "").split()}}
    assert [x.text for x in own_words(text, [m], words, fold)] == [whole]


def test_a_mention_does_not_run_into_its_neighbour():
    text = "by Ana Paula Mestre Silva today"
    a = Mention(3, 12, "PERSON", "Ana Paula", "test", "test", entity=1)
    b = Mention(20, 25, "PERSON", "Silva", "test", "test", entity=2)
    words = {1: {"ana", "paula", "mestre", "silva"}, 2: {"silva"}}
    assert [x.text for x in own_words(text, [a, b], words, fold)] == ["Ana Paula Mestre", "Silva"]


@pytest.mark.parametrize("text, found", [
    # a company's branch after its legal tail and a dash
    ("from the account at Bank of China Limited – Sucursal em Portugal, on", "Bank of China Limited – Sucursal em "
     "Portugal"),
    ("paid to Kessler Maschinenbau GmbH – Branch in Portugal, which", "Kessler Maschinenbau GmbH – Branch in Portugal"),
    ("invoiced by Alfa Ltd – branch office staff", "Alfa Ltd"),   # a lower-case word after the dash: no branch
])
def test_a_companys_branch_belongs_to_its_name(rec, text, found):
    assert _hits(rec, text, "ORGANIZATION") == [found]


@pytest.mark.parametrize("text, found", [
    # a body's fields listed with commas up to the last "and"
    ("refer the matter to the Insurance Information, Mediation and Arbitration Centre (CIMPAS).",
     ["Insurance Information, Mediation and Arbitration Centre"]),
    ("the Consumer Information, Mediation and Arbitration Centre of Porto", ["Consumer Information, Mediation and "
                                                                           "Arbitration Centre of Porto"]),
    # a list of bodies is no body's fields
    ("heard by the Lisbon Court, Faro and Porto Courts", ["Lisbon Court", "Faro and Porto Courts"]),
])
def test_a_bodys_fields_listed_with_commas(rec, text, found):
    assert _hits(rec, text, "ORGANIZATION") == found


@pytest.mark.parametrize("tgt, pieces, whole", [
    ("from the account at Bank of China Limited, on", [("Bank", "PERSON"), ("China Limited", "ORGANIZATION")],
     "Bank of China Limited"),
    ("supplied by Institute for Quality Ltd under", [("Institute", "PERSON"), ("Quality Ltd", "ORGANIZATION")],
     "Institute for Quality Ltd"),
    ("owned by Casa de Pasto Lda. since", [("Casa", "PERSON"), ("Pasto Lda.", "ORGANIZATION")], "Casa de Pasto Lda."),
])
def test_a_company_in_pieces_joined_by_a_preposition_is_one_name(rec, tgt, pieces, whole):
    src = [Mention(0, len(t), c, t, "test", "test", entity=k + 1) for k, (t, c) in enumerate(pieces)]
    res = Transferrer(english=rec).transfer(src, [], [], tgt, links=[])
    assert [(m.text, m.category, m.entity) for m in res.mentions] == [(whole, "ORGANIZATION", 2)]


@pytest.mark.parametrize("text, found", [
    # a dash or a sentence's end, then an article, opens another phrase: the body's name ends before it
    ("Viseu Land Registry Office – The Registrar, Rui Lobo", "Viseu Land Registry Office"),
    ("issued by the Tomar Commercial Registry Office. The Registrar signs below", "Tomar Commercial Registry Office"),
    ("Loulé Tax Office — A copy is attached", "Loulé Tax Office"),
    # a dash between two capitalized names with no article: one name (a body and its unit)
    ("Northern Corporate Banking – Vila Real Business Centre", "Northern Corporate Banking – Vila Real Business Centre"),
])
def test_a_bodys_name_ends_where_another_phrase_opens(rec, text, found):
    assert _hits(rec, text, "ORGANIZATION") == [found]


@pytest.mark.parametrize("text, found", [
    # the preposition that opens a contract's parties is no part of the company's name
    ("Between NORTEFRIO SOLUTIONS, S.A. and the Buyer", "NORTEFRIO SOLUTIONS, S.A."),
    ("Among Quercal Holdings Ltd, Ana Rocha and others", "Quercal Holdings Ltd"),
    ("By Valmonte Trading GmbH, represented by", "Valmonte Trading GmbH"),
])
def test_a_company_name_without_the_words_that_open_the_sentence(rec, text, found):
    assert _hits(rec, text, "ORGANIZATION") == [found]


@pytest.mark.parametrize("text, found", [
    # more house numbers after the first belong to the one address
    ("Risk location: Largo do Pelourinho, 3 e 5, 7000-812 Évora, a shop", "Largo do Pelourinho, 3 e 5, 7000-812 Évora"),
    ("Premises at Rua das Flores, 21 and 23, 4050-262 Porto, ground floor", "Rua das Flores, 21 and 23, 4050-262 Porto"),
    ("Warehouse: Avenida Central, 40/42, 4710-229 Braga.", "Avenida Central, 40/42, 4710-229 Braga"),
])
def test_an_address_with_several_house_numbers_is_one_span(rec, text, found):
    assert _hits(rec, text, "ADDRESS") == [found]
