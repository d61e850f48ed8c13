"""Address, identifier and date layouts people type (issue 17, issue 20), as classes: each with three variants
written for the test (no string of any evaluation set), and the near misses that must stay as they were."""

from __future__ import annotations

import pytest

from tests.test_contract_layouts import _en, _spans

# Brazilian addresses: a highway with its code and kilometre, a district written "bairro X" in lower case before
# the town and its state, a sector of Brasília and its block
BRAZILIAN_ADDRESSES = [
    ("O armazém fica na Rodovia BR-116, km 12, Jardim Anhangá, Curitiba – PR, CEP 81460-000.",
     "Rodovia BR-116, km 12, Jardim Anhangá, Curitiba – PR, CEP 81460-000"),
    ("com sede na Rodovia Anhanguera, km 25, Jundiaí – SP.", "Rodovia Anhanguera, km 25, Jundiaí – SP"),
    ("residente na Rua Padre Manuel, 45, apto. 301, bairro Santa Efigênia, Belo Horizonte – MG, CEP 30260-070.",
     "Rua Padre Manuel, 45, apto. 301, bairro Santa Efigênia, Belo Horizonte – MG, CEP 30260-070"),
    ("morador na Rua das Acácias, 88, bairro Jardim Botânico, Curitiba – PR, Brasil.",
     "Rua das Acácias, 88, bairro Jardim Botânico, Curitiba – PR"),
    ("Residente na SQN 308, Bloco C, apartamento 504, Asa Norte, Brasília – DF.",
     "SQN 308, Bloco C, apartamento 504, Asa Norte, Brasília – DF"),
    ("Mora na SHIS QI 15, conjunto 8, casa 12, Lago Sul, Brasília.", "SHIS QI 15, conjunto 8, casa 12, Lago Sul"),
    ("com escritório na CLN 214, Bloco B, sala 210, Asa Norte, Brasília – DF.",
     "CLN 214, Bloco B, sala 210, Asa Norte, Brasília – DF"),
]

# a flat or block opening the second address of a list, after a semicolon (and "e"/"and"): an address, not a person
UNIT_AFTER_A_LIST_WORD = [
    # (a semicolon ends the first address: the two are two spans)
    ("Moradas: Rua do Sol, 9, 1000-100 Lisboa; e Apartment 7, Block C, Liffey Court, Dublin 4.",
     "Apartment 7, Block C, Liffey Court, Dublin 4"),
    # (the first place after the last numbered part: a town after a building's name stays out)
    ("residentes na Rua Nova, 3, Braga; and Flat 2, Block A, Harbour View, Cork.", "Flat 2, Block A, Harbour View"),
    ("morada antiga: Avenida Central, 5, Braga; Apartment 14, Block F, Dock Road, Galway.",
     "Apartment 14, Block F, Dock Road"),
]

# a street with no number as a part after a place: the place after it is its town
STREET_THEN_TOWN = [
    ("o prédio rústico sito no Lugar do Cabeço, Caminho da Ribeira Funda, Serra Alta, inscrito na matriz",
     "Lugar do Cabeço, Caminho da Ribeira Funda, Serra Alta"),
    ("residente no Lugar da Igreja, Travessa do Moinho, Vila Chã, portador do cartão", "Lugar da Igreja, Travessa do Moinho, Vila Chã"),
    ("com sede no Sítio das Hortas, Estrada do Poço Velho, Santa Bárbara, desde 2010",
     "Sítio das Hortas, Estrada do Poço Velho, Santa Bárbara"),
]

# an English street name that ends with a direction after its tail, on both sides
STREET_DIRECTION = [
    ("residente em 450 King Street West, Toronto, Canadá.", "450 King Street West, Toronto"),
    ("com escritório em 12 Harbord Road North, Apt. 5, Leeds LS6 2AB.", "12 Harbord Road North, Apt. 5, Leeds LS6 2AB"),
    ("residente em Flat 9, Block E, Bridge Street Upper, Dublin 8.", "Flat 9, Block E, Bridge Street Upper, Dublin 8"),
]

EN_STREET_DIRECTION = [
    ("She lives at 450 King Street West, Toronto, Canada.", "450 King Street West, Toronto"),
    ("The office is at 12 Harbord Road North, Apt. 5, Leeds LS6 2AB.", "12 Harbord Road North, Apt. 5, Leeds LS6 2AB"),
    ("Current address: Flat 9, Block E, Bridge Street Upper, Dublin 8.",
     "Flat 9, Block E, Bridge Street Upper, Dublin 8"),
    # (a district after its name, as English writes it)
    ("Address: Rua das Acácias, 88, apt. 12, Jardim Botânico district, Curitiba – PR, Brazil.",
     "Rua das Acácias, 88, apt. 12, Jardim Botânico district, Curitiba – PR"),
]


@pytest.mark.parametrize("text,address", BRAZILIAN_ADDRESSES + UNIT_AFTER_A_LIST_WORD + STREET_DIRECTION
                         + STREET_THEN_TOWN)
def test_an_address_of_these_layouts_is_one_span(anonymizer, text, address):
    assert address in _spans(anonymizer, text, "ADDRESS")


@pytest.mark.parametrize("text,address", EN_STREET_DIRECTION)
def test_an_english_address_keeps_its_direction_and_district(en, text, address):
    assert _en(en, text, "ADDRESS") == [address]


# a capitalized sector-like acronym and a number with no address around it is no address
NOT_AN_ADDRESS = [
    "A norma SQN 308 foi revista pela comissão.",
    "O sistema CLN 214 entrou em produção em março.",
    "A equipa subiu a rua a pé, junto ao bairro antigo.",
]


@pytest.mark.parametrize("text", NOT_AN_ADDRESS)
def test_a_sector_acronym_alone_is_no_address(anonymizer, text):
    assert _spans(anonymizer, text, "ADDRESS") == []


# identifiers in the layouts people type: a registry presentation with its date, a card printed masked, a code in
# brackets after its trigger, an eleven-digit number in spaced groups after its trigger, a civil registry entry
IDENTIFIERS = [
    ("registada pela apresentação AP. 3318 de 2019/04/12, a cancelar", "3318 de 2019/04/12"),
    ("Insc. 4 – AP. 12/20190412 – ALTERAÇÃO DO CONTRATO", "12/20190412"),
    ("Av. 1 – Ap. 55/20221130 – CESSAÇÃO DE FUNÇÕES", "55/20221130"),
    ("o pagamento foi feito com o cartão **** **** **** 9021, em prestações.", "**** **** **** 9021"),
    ("cartão de crédito n.º XXXX-XXXX-XXXX-1187, válido até 2027", "XXXX-XXXX-XXXX-1187"),
    ("pago com o cartão •••• •••• •••• 5530.", "•••• •••• •••• 5530"),
    ("indicou o número de utente do SNS (284 615 903) no formulário.", "284 615 903"),
    ("NIF (245 118 770) e morada fiscal em Braga", "245 118 770"),
    ("a apólice (AP-2024-7713) cobre o recheio", "AP-2024-7713"),
    ("com o NISS 11 204 387 662, trabalhador por conta de outrem", "11 204 387 662"),
    ("segurança social n.º 12 093 004 511.", "12 093 004 511"),
    ("inscrito na segurança social sob o n.º 10 877 345 210", "10 877 345 210"),
    ("O nascimento consta do assento n.º 731 do ano de 1990.", "731"),
    ("conforme o assento de óbito n.º 2210 da Conservatória", "2210"),
    ("lavrado o assento n.º 158 de casamento", "158"),
    # a property's tax register entry, its kind between, or its number written as an ordinal
    ("o prédio com o artigo matricial urbano 2210, em Lamego", "2210"),
    ("inscrito na matriz predial rústica sob o artigo 77.º da secção C", "77.º"),
    ("inscrita na matriz sob o artigo 1203.º da freguesia de Arcos", "1203.º"),
]


@pytest.mark.parametrize("text,code", IDENTIFIERS)
def test_an_identifier_in_a_typed_layout_is_masked(anonymizer, text, code):
    assert code in _spans(anonymizer, text, "NAMEID")


# amounts stay amounts: a currency after the digits, a short number in brackets after a trigger; a law's article
# stays public
NOT_IDENTIFIERS = [
    ("sob o artigo 12.º do Código Civil, o prazo é de um ano", "12.º"),
    ("o contrato tem o valor de 12 500 000 000 euros", "12 500 000 000"),
    ("a fatura (12 páginas) segue em anexo", "12"),
    ("o processo (2 volumes) foi remetido", "2"),
]


@pytest.mark.parametrize("text,number", NOT_IDENTIFIERS)
def test_an_amount_or_count_is_no_identifier(anonymizer, text, number):
    assert number not in _spans(anonymizer, text, "NAMEID")


# dates with the month in Roman numerals
ROMAN_MONTH = [
    ("nascida em 19.IX.1984, em Argel", "19.IX.1984"),
    ("Lisboa, 2-XI-2024", "2-XI-2024"),
    ("casaram em 7/IV/1961 na Conservatória", "7/IV/1961"),
]


@pytest.mark.parametrize("text,date", ROMAN_MONTH)
def test_a_date_with_a_roman_month_is_a_date(anonymizer, text, date):
    assert _spans(anonymizer, text, "DATE") == [date]


# a private deed's signature formula with its date in digits is the parties' date; an act's, in words, is public
SIGNATURE_DATES = [
    ("Feito em Castelo Branco, em 03/04/2025, em dois exemplares.", "03/04/2025"),
    ("Assinado em Viseu, em 17.09.2024.", "17.09.2024"),
    ("Feita em Tavira, em 28-02-2026, em triplicado.", "28-02-2026"),
]


@pytest.mark.parametrize("text,date", SIGNATURE_DATES)
def test_a_private_signature_date_in_digits_is_masked(anonymizer, text, date):
    assert _spans(anonymizer, text, "DATE") == [date]


def test_an_act_signature_date_in_words_stays_public(anonymizer):
    assert _spans(anonymizer, "Feito em Bruxelas, em 3 de maio de 2019.", "DATE") == []


def test_a_semicolon_between_two_addresses_keeps_them_two(anonymizer):
    text = "Moradas: Rua do Sol, 9, 1000-100 Lisboa; e Apartment 7, Block C, Liffey Court, Dublin 4."
    assert _spans(anonymizer, text, "ADDRESS") == ["Rua do Sol, 9, 1000-100 Lisboa", "Apartment 7, Block C, Liffey Court, Dublin 4"]
    assert _spans(anonymizer, text, "PERSON") == []


# the same identifier and date layouts on the English side (a second line where the alignment misses)
EN_LAYOUTS = [
    ("The mortgage was registered under AP. 3318 of 2019/04/12.", "NAMEID", "3318 of 2019/04/12"),
    ("Reg. 4 – AP. 12/20190412 – AMENDMENT OF THE ARTICLES", "NAMEID", "12/20190412"),
    ("paid with card **** **** **** 9021 in instalments", "NAMEID", "**** **** **** 9021"),
    ("credit card no. XXXX-XXXX-XXXX-1187, valid until 2027", "NAMEID", "XXXX-XXXX-XXXX-1187"),
    ("with social security number 11 204 387 662, an employee", "NAMEID", "11 204 387 662"),
    ("her SNS user number (284 615 903) on the form", "NAMEID", "284 615 903"),
    ("The birth is recorded in entry no. 731 of 1990.", "NAMEID", "731"),
    ("born on 19.IX.1984 in Algiers", "DATE", "19.IX.1984"),
    ("Lisbon, 2-XI-2024", "DATE", "2-XI-2024"),
    ("married on 7/IV/1961 at the Registry", "DATE", "7/IV/1961"),
]


@pytest.mark.parametrize("text,category,span", EN_LAYOUTS)
def test_an_english_identifier_or_date_in_a_typed_layout_is_found(en, text, category, span):
    assert _en(en, text, category) == [span]


def test_entry_into_force_is_no_identifier(en):
    assert _en(en, "The entry into force on 1 January 2020 of Regulation 12/2019.", "NAMEID") == []
