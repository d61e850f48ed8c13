"""Recognition rules of issue 17 as linguistic classes, each with three variants written for the test (no
string of any evaluation set): the found span of the given category, whole."""

from __future__ import annotations

import pytest


def _spans(anonymizer, text: str, category: str) -> list[str]:
    return [m.text for m in anonymizer.recognize_document([text])[0] if m.category == category]


# an address written in comma-separated parts is one address: locality, building, floor, door number, postcode
ADDRESS_IN_PARTS = [
    ("Vive na Rua dos Lírios, n.º 9, Gandarela, 3045-101 Taveiro, desde 2010.",
     "Rua dos Lírios, n.º 9, Gandarela, 3045-101 Taveiro"),
    ("Sede: Avenida Central, n.º 41, Edifício Horizonte, sala 3.04, 4700-321 Braga",
     "Avenida Central, n.º 41, Edifício Horizonte, sala 3.04, 4700-321 Braga"),
    ("Escritório na Travessa do Carmo, n.º 12, armazém 2, 1200-093 Lisboa – tel. fixo",
     "Travessa do Carmo, n.º 12, armazém 2, 1200-093 Lisboa"),
]

# the comma-separated parts before an address belong to it when the first opens with an address head word
ADDRESS_PARTS_BEFORE = [
    ("com sede no Lugar de Cimo de Vila, Zona Industrial, Lote 8, 4800-123 Guimarães,",
     "Lugar de Cimo de Vila, Zona Industrial, Lote 8, 4800-123 Guimarães"),
    ("instalada na Quinta do Ribeiro, Pavilhão 2, 2500-333 Caldas da Rainha.",
     "Quinta do Ribeiro, Pavilhão 2, 2500-333 Caldas da Rainha"),
    ("morada: Bairro da Encarnação, Bloco C, 1800-111 Lisboa",
     "Bairro da Encarnação, Bloco C, 1800-111 Lisboa"),
]

# house number first, then the street word (French, Italian, Spanish layouts), with a foreign postcode and town
ADDRESS_NUMBER_FIRST = [
    ("residente em 8 rue des Lilas, 69003 Lyon, França.", "8 rue des Lilas, 69003 Lyon"),
    ("domiciliado em 27 via della Spiga, 20121 Milano, Itália.", "27 via della Spiga, 20121 Milano"),
    ("com domicílio em Rue du Marché, 4, 1204 Genève, Suíça.", "Rue du Marché, 4, 1204 Genève"),
]


@pytest.mark.parametrize("text,address", ADDRESS_IN_PARTS + ADDRESS_PARTS_BEFORE + ADDRESS_NUMBER_FIRST)
def test_an_address_in_parts_is_one_address(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]


# a town, a day and a month: a date, not a street and its house number
PLACE_AND_DATE = [
    ("Vila Franca, 3 de março de 2024", "3 de março de 2024"),
    ("Lugar Novo, 12 de janeiro de 2023.", "12 de janeiro de 2023"),
    ("Quinta Grande, 28 de junho de 2021 – o gerente", "28 de junho de 2021"),
]


@pytest.mark.parametrize("text,date", PLACE_AND_DATE)
def test_a_day_after_a_town_is_a_date_not_a_house_number(anonymizer, text, date):
    assert _spans(anonymizer, text, "DATE") == [date]
    assert _spans(anonymizer, text, "ADDRESS") == []


# a conjunction or the end of a word is no floor's side: "Horta e Costa" stays one street name
STREET_WITH_CONJUNCTION = [
    ("morada na Rua Sousa e Melo, n.º 14, 4000-111 Porto", "Rua Sousa e Melo, n.º 14, 4000-111 Porto"),
    ("na Avenida Costa e Silva, n.º 3, 2º andar E, 1000-001 Lisboa",
     "Avenida Costa e Silva, n.º 3, 2º andar E, 1000-001 Lisboa"),
    ("sita na Praça Pinto e Brito, n.º 7, 3000-200 Coimbra", "Praça Pinto e Brito, n.º 7, 3000-200 Coimbra"),
]


@pytest.mark.parametrize("text,address", STREET_WITH_CONJUNCTION)
def test_a_conjunction_inside_a_street_name_is_no_floor_side(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]
