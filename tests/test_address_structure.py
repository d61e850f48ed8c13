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
