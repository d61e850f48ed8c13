"""Contract entities by their structure: an address is one span (a street part, its numbers and units, a postcode
and a locality, on either side), a register's entries after one phrase are identifiers each, a document's dotted
acronym is no party, a brand's name opens its company's. Every example is written for this test (none is taken
from an evaluation set); three variants a class."""

from __future__ import annotations

import pytest

from tests.test_contract_layouts import _spans
from tests.test_contract_shields import _addresses


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


def _english_addresses(english, text: str) -> list[str]:
    return [text[h.start:h.end] for h in english.find(text) if h.category == "ADDRESS"]


# a door, a lot (its number in dotted parts) or a flat, translated, is the English address's part
@pytest.mark.parametrize("text, address", [
    ("Domicile: Urbanização Quinta da Fonte, Block B, door 3, 2nd D, 2780-730 Paço de Arcos",
     "Urbanização Quinta da Fonte, Block B, door 3, 2nd D, 2780-730 Paço de Arcos"),
    ("The leased property is located at Alameda dos Oceanos, Lot 1.06.1.1, 4th A, Parque das Nações, 1990-207 Lisbon.",
     "Alameda dos Oceanos, Lot 1.06.1.1, 4th A, Parque das Nações, 1990-207 Lisbon"),
    ("Lucas Pereira, resident at Rua Augusta, 1200, apt 301, Bela Vista, São Paulo - SP, CEP 01310-100.",
     "Rua Augusta, 1200, apt 301, Bela Vista, São Paulo - SP, CEP 01310-100"),
])
def test_an_english_door_lot_or_flat_is_the_addresss_part(english, text, address):
    assert _english_addresses(english, text) == [address]


# a house without a number: the words that stand for its number are a part of the address, on either side
@pytest.mark.parametrize("text, address", [
    ("Beatriz Lima, residing at Largo da Feira, no number, 3500-001 Viseu.", "Largo da Feira, no number, 3500-001 Viseu"),
    ("with its seat at Rua do Moinho, without number, 7000-100 Évora.", "Rua do Moinho, without number, 7000-100 Évora"),
    ("resident at Travessa da Fonte, unnumbered, 3500-002 Viseu.", "Travessa da Fonte, unnumbered, 3500-002 Viseu"),
])
def test_an_english_house_without_a_number_is_one_address(english, text, address):
    assert _english_addresses(english, text) == [address]


# a letterhead's line: a house's or a building's name before the street, the line closed by a Portuguese or a
# British postcode, is the address's first part ...
@pytest.mark.parametrize("text", [
    "The Old Rectory, Church Lane, Little Snoring, Norfolk NR21 0AA",
    "Residência Sol Nascente, Rua do Pinhal, 12, 2065-000 Alcoentre",
    "Vivenda Aurora, Travessa do Moinho, 4, 2040-100 Rio Maior",
])
def test_a_houses_name_opening_a_letterhead_line_is_the_addresss(anonymizer, text):
    assert _addresses(anonymizer, text) == [text]


# ... but a person or a company before the street keeps its own span
@pytest.mark.parametrize("text, address", [
    ("Maria Santos, Rua do Pinhal, 12, 2065-000 Alcoentre", "Rua do Pinhal, 12, 2065-000 Alcoentre"),
    ("Exmo. Senhor João Pereira, Rua do Pinhal, 12, 2065-000 Alcoentre", "Rua do Pinhal, 12, 2065-000 Alcoentre"),
    ("Lusotec Lda, Rua do Pinhal, 12, 2065-000 Alcoentre", "Rua do Pinhal, 12, 2065-000 Alcoentre"),
])
def test_a_party_opening_a_letterhead_line_is_no_address(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


# an identity document's or a tax number's acronym written with dots is a trigger word, like its undotted form:
# no company and no person; a body's dotted acronym stays a body
@pytest.mark.parametrize("text, masked", [
    ("o titular do C.C. n.º 12345678 declara.", [("12345678", "NAMEID")]),
    ("portador do B.I. n.º 1234567, emitido pelo Arquivo.", [("1234567", "NAMEID")]),
    ("com o N.I.F. 234567890 e o N.I.S.S. 11223344556.", [("234567890", "NAMEID"), ("11223344556", "NAMEID")]),
    ("a C.M.L. aprovou o projeto.", [("C.M.L.", "ORGANIZATION")]),
])
def test_a_dotted_document_acronym_is_no_party(anonymizer, text, masked):
    assert [(m.text, m.category) for m in anonymizer.recognize_document([text])[0]] == masked


# a street and its postcode's line written apart by a semicolon, a bar or a slash are one address; two whole
# addresses so written stay two
@pytest.mark.parametrize("text, addresses", [
    ("Morada: Rua das Flores, 12; 4050-262 Porto", ["Rua das Flores, 12; 4050-262 Porto"]),
    ("Morada: Travessa do Sol, 3 | 2800-100 Almada", ["Travessa do Sol, 3 | 2800-100 Almada"]),
    ("Sede: Rua do Carmo, 5 / 1200-093 Lisboa", ["Rua do Carmo, 5 / 1200-093 Lisboa"]),
    ("as moradas Rua A, n.º 1, 1000-001 Lisboa; Rua B, n.º 2, 4000-002 Porto.",
     ["Rua A, n.º 1, 1000-001 Lisboa", "Rua B, n.º 2, 4000-002 Porto"]),
])
def test_a_street_and_its_postcode_apart_by_a_separator_are_one_address(anonymizer, text, addresses):
    assert _addresses(anonymizer, text) == addresses


# a brand's name ending with a plus before a dash and a company's name is the company's name's first part
@pytest.mark.parametrize("text, name", [
    ("RECUPERA+ – Gestão de Créditos, S.A.", "RECUPERA+ – Gestão de Créditos, S.A."),
    ("Entre a Clínica Vital+ – Serviços Médicos, Lda. e o cliente.", "Clínica Vital+ – Serviços Médicos, Lda."),
    ("A fatura da LIMPA+ – Higiene Industrial, Lda. vence hoje.", "LIMPA+ – Higiene Industrial, Lda."),
])
def test_a_brand_with_a_plus_before_a_dash_opens_the_companys_name(anonymizer, text, name):
    assert _spans(anonymizer, text, "ORGANIZATION") == [name]


# a floor named in words, with its side, is the English address's part
@pytest.mark.parametrize("text, address", [
    ("resident at Rua do Sol, no. 5, ground floor left, 2800-100 Almada.", "Rua do Sol, no. 5, ground floor left, 2800-100 Almada"),
    ("resident at Rua da Fonte, no. 9, first floor right, 3000-100 Coimbra.",
     "Rua da Fonte, no. 9, first floor right, 3000-100 Coimbra"),
    ("with its seat at Avenida Central, no. 14, basement floor, 4700-001 Braga.",
     "Avenida Central, no. 14, basement floor, 4700-001 Braga"),
])
def test_an_english_floor_in_words_is_the_addresss_part(english, text, address):
    assert _english_addresses(english, text) == [address]


# the postcode's own word before it, on either side, leaves the address one span
@pytest.mark.parametrize("text, address", [
    ("residente na Rua do Carmo, 5, Código Postal: 1200-093 Lisboa", "Rua do Carmo, 5, Código Postal: 1200-093 Lisboa"),
    ("com sede na Avenida da Boavista, n.º 1000, sala 5, código postal 4100-130 Porto.",
     "Avenida da Boavista, n.º 1000, sala 5, código postal 4100-130 Porto"),
    ("com sede na Rua do Ouro, n.º 3, 2.º, código postal 1100-060 Lisboa.",
     "Rua do Ouro, n.º 3, 2.º, código postal 1100-060 Lisboa"),
])
def test_a_postcodes_word_inside_an_address_keeps_it_one_span(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


@pytest.mark.parametrize("text, address", [
    ("with registered office at Avenida da Boavista, no. 1000, room 5, postcode 4100-130 Porto.",
     "Avenida da Boavista, no. 1000, room 5, postcode 4100-130 Porto"),
    ("resident at Rua Augusta, 1200, apartment 301, São Paulo - SP, zip code 01310-100.",
     "Rua Augusta, 1200, apartment 301, São Paulo - SP, zip code 01310-100"),
    ("Rua do Carmo, 5, post code: 1200-093 Lisbon", "Rua do Carmo, 5, post code: 1200-093 Lisbon"),
])
def test_an_english_postcodes_word_inside_an_address_keeps_it_one_span(english, text, address):
    assert _english_addresses(english, text) == [address]


# several house numbers after a plural number sign
@pytest.mark.parametrize("text, address", [
    ("resident at Rua Direita, nos. 12 and 14, 3500-001 Viseu.", "Rua Direita, nos. 12 and 14, 3500-001 Viseu"),
    ("the shop at Largo do Paço, Nos. 3 and 5, 4700-001 Braga, opened.", "Largo do Paço, Nos. 3 and 5, 4700-001 Braga"),
    ("located at Travessa do Sol, numbers 7 and 9, 2800-100 Almada.", "Travessa do Sol, numbers 7 and 9, 2800-100 Almada"),
])
def test_an_english_plural_number_sign_before_house_numbers_keeps_one_span(english, text, address):
    assert _english_addresses(english, text) == [address]


# a district after a dash joins the address when a postcode follows (a Brazilian layout); a town alone after a
# dash does not
@pytest.mark.parametrize("text, address", [
    ("residente na Rua Oscar Freire, 1200 - Jardim Paulista, São Paulo - SP, 01426-001.",
     "Rua Oscar Freire, 1200 - Jardim Paulista, São Paulo - SP, 01426-001"),
    ("residente em Rua da Cruz, 5 – Bairro Alto, 1200-000 Lisboa.", "Rua da Cruz, 5 – Bairro Alto, 1200-000 Lisboa"),
    ("com sede na Avenida Brasil, 300 - Centro, Curitiba - PR, CEP 80010-000.",
     "Avenida Brasil, 300 - Centro, Curitiba - PR, CEP 80010-000"),
    ("residente na Rua do Sol, 5 – Lisboa, e trabalha em Sintra.", "Rua do Sol, 5"),
])
def test_a_district_after_a_dash_joins_before_a_postcode(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


# a postcode's word and a colon before the postcode, inside an address's parts
@pytest.mark.parametrize("text, address", [
    ("residente na Av. Paulista, nº 1578, 5º andar, Bela Vista, CEP: 01310-200, São Paulo/SP.",
     "Av. Paulista, nº 1578, 5º andar, Bela Vista, CEP: 01310-200, São Paulo/SP"),
    ("residente na Rua Augusta, 100, Centro, CEP: 01310-100, São Paulo - SP.",
     "Rua Augusta, 100, Centro, CEP: 01310-100, São Paulo - SP"),
    ("residing at Rua das Flores, 12, Postcode: 4050-262 Porto", "Rua das Flores, 12, Postcode: 4050-262 Porto"),
])
def test_a_postcodes_word_and_colon_keep_the_address_one_span(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


# a French flat's word after the building, before the postcode
@pytest.mark.parametrize("text, address", [
    ("residentes em 14 bis, rue des Glycines, Bâtiment B, appartement 12, 69003 Lyon, França, adiante.",
     "14 bis, rue des Glycines, Bâtiment B, appartement 12, 69003 Lyon"),
    ("residente em 8, rue Victor Hugo, appartement 4, 75001 Paris.", "8, rue Victor Hugo, appartement 4, 75001 Paris"),
    ("residente em 22 avenue Foch, Bâtiment A, appartement 31, 13008 Marseille.",
     "22 avenue Foch, Bâtiment A, appartement 31, 13008 Marseille"),
])
def test_a_french_flat_is_the_addresss_part(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


# a phone's extension in brackets after it is the phone's part
@pytest.mark.parametrize("text, phone", [
    ("Tel. 265 541 390 (ext. 22), fax 265 541 391.", "265 541 390 (ext. 22)"),
    ("Telefone: 262 839 110 (extensão 204) · secretaria", "262 839 110 (extensão 204)"),
    ("ligue para o 213 456 789 (ramal 31), das 9h às 17h.", "213 456 789 (ramal 31)"),
])
def test_a_phones_extension_is_its_part(anonymizer, text, phone):
    assert _spans(anonymizer, text, "NAMEID")[0] == phone
