"""An address is one span by its structure: a street part, its numbers and units, a postcode and a locality. Every
example is written for this test (none is taken from an evaluation set); three variants a class."""

from __future__ import annotations

import pytest

from tests.test_contract_layouts import _spans


def _addresses(anonymizer, text: str) -> list[str]:
    return _spans(anonymizer, text, "ADDRESS")


# a unit designated by letters (any letters, not only a floor's sides) is the address's part
@pytest.mark.parametrize("text, address", [
    ("O imóvel sito na Travessa do Carmo, n.º 7, fração F, em Lisboa.", "Travessa do Carmo, n.º 7, fração F"),
    ("A loja sita na Rua Direita, n.º 12, loja AB, em Braga.", "Rua Direita, n.º 12, loja AB"),
    ("O escritório sito na Praça da Liberdade, n.º 9, fração BC2, no Porto.", "Praça da Liberdade, n.º 9, fração BC2"),
])
def test_a_unit_designated_by_letters_is_the_addresss_part(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


@pytest.fixture(scope="module")
def english():
    from paranon.align.english import EnglishRecognizer

    return EnglishRecognizer()


# the same units translated: a shop's or a fraction's designation, letters or digits, ends the English address
@pytest.mark.parametrize("text, address", [
    ("The shop located at Rua Direita, no. 12, shop AB, in Braga, is leased.", "Rua Direita, no. 12, shop AB"),
    ("The office at Praça da Liberdade, no. 9, fraction BC2, in Porto, becomes vacant.",
     "Praça da Liberdade, no. 9, fraction BC2"),
    ("The shop at Avenida Central, no. 30, Shop 4, in Braga, opened.", "Avenida Central, no. 30, Shop 4"),
])
def test_an_english_shop_or_fraction_is_the_addresss_part(english, text, address):
    assert [text[h.start:h.end] for h in english.find(text) if h.category == "ADDRESS"] == [address]


# several entries of a property's tax or land register after one phrase are identifiers, each of them
@pytest.mark.parametrize("text, ids", [
    ("O prédio está inscrito na matriz sob os artigos 123 e 124.", ["123", "124"]),
    ("inscritos na matriz predial rústica sob os artigos 456, 457 e 458 da freguesia de Alvito.",
     ["456", "457", "458"]),
    ("os prédios com os artigos matriciais 1234 e 1235 foram vendidos.", ["1234", "1235"]),
    ("inscrito na matriz sob o artigo 98 e descrito sob os n.os 45 e 46.", ["98", "45", "46"]),
])
def test_register_entries_after_one_phrase_are_identifiers(anonymizer, text, ids):
    assert _spans(anonymizer, text, "NAMEID") == ids


# an ordinal after the same phrases is a law's article, no register entry
@pytest.mark.parametrize("text", [
    "nos termos do disposto sob o artigo 12.º do Código Civil.",
    "a matéria regulada sob os artigos 405.º e 406.º do Código Civil.",
    "conforme previsto sob os artigos 7.º e 8.º da Lei.",
])
def test_an_ordinal_after_a_register_phrase_is_a_laws_article(anonymizer, text):
    assert _spans(anonymizer, text, "NAMEID") == []
