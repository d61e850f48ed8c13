"""Address and identifier layouts of contracts and registry text, on both sides, as classes: each with three
variants written for the test (no string of any evaluation set)."""

from __future__ import annotations

import pytest


def _spans(anonymizer, text: str, category: str) -> list[str]:
    return [m.text for m in anonymizer.recognize_document([text])[0] if m.category == category]


def _en(en, text: str, category: str) -> list[str]:
    return [text[h.start:h.end] for h in en.find(text) if h.category == category]


# the town after the last numbered part (a floor, a side, a door) belongs to the address; a country after a town
# or postcode does not
TOWN_AFTER_FLOOR = [
    ("O mandatário reside na Rua Augusto Gil, n.º 17, 3.º esquerdo, Amadora, desde 2019.",
     "Rua Augusto Gil, n.º 17, 3.º esquerdo, Amadora"),
    ("residente na Avenida de Almeida Ribeiro, n.º 61, 7.º andar B, Macau, portador do documento.",
     "Avenida de Almeida Ribeiro, n.º 61, 7.º andar B, Macau"),
    ("com morada no Largo do Paço, 4, r/c, Viseu.", "Largo do Paço, 4, r/c, Viseu"),
]

# foreign layouts: a side of the floor in Spanish, a German street with its postcode before the country, a
# postcode after a dash
FOREIGN_LAYOUTS = [
    ("domiciliado na Calle Mayor, 10, 3.º izquierda, 28013 Madrid, Espanha.",
     "Calle Mayor, 10, 3.º izquierda, 28013 Madrid"),
    ("com sede na Friedrichstraße 123, 10117 Berlin, Alemanha.", "Friedrichstraße 123, 10117 Berlin"),
    ("Morada: Rua das Flores, 23 – 4050-262 Porto", "Rua das Flores, 23 – 4050-262 Porto"),
]

# smallest part first (a room, flat, block or floor), Chinese, Hong Kong, UK and Emirati layouts; a PO box
UNIT_FIRST = [
    ("com sede em 18/F, Block C, Haiyue Plaza, Nanshan District, Shenzhen 518067, China.",
     "18/F, Block C, Haiyue Plaza, Nanshan District, Shenzhen 518067"),
    ("residente em Flat 3, 27 Marlborough Road, Cheltenham GL52 6DX, Reino Unido.",
     "Flat 3, 27 Marlborough Road, Cheltenham GL52 6DX"),
    ("residente em P.O. Box 48213, Dubai, Emirados Árabes Unidos.", "P.O. Box 48213, Dubai"),
    # (a place after the opening word before the first unit: a tower or block's name)
    ("com escritório em Jumeirah Lake Towers, Cluster D, Tower 3, Office 1204, Dubai, Emirados Árabes Unidos.",
     "Jumeirah Lake Towers, Cluster D, Tower 3, Office 1204, Dubai"),
    ("residente em Marina Heights, Apartment 2305, Dubai Marina, Dubai.", "Marina Heights, Apartment 2305, Dubai Marina"),
]

# a street with no number whose later parts carry the numbers; a US address with its state and ZIP code
STREET_THEN_PARTS = [
    ("com sede em Sheikh Zayed Road, Emirates Towers, 21.º andar, Dubai, Emirados Árabes Unidos.",
     "Sheikh Zayed Road, Emirates Towers, 21.º andar, Dubai"),
    ("residente em 1200 Pine Street, Apt. 4B, San Francisco, CA 94109, Estados Unidos.",
     "1200 Pine Street, Apt. 4B, San Francisco, CA 94109"),
    ("RUA DE SÃO BENTO, N.º 148, 1200-821 LISBOA", "RUA DE SÃO BENTO, N.º 148, 1200-821 LISBOA"),
]

# the house number in its other spellings: "s/n" (no number), a letter after a dash, a floor after a dash
HOUSE_NUMBER_SPELLINGS = [
    ("sito na Rua Direita, s/n, 5300-000 Bragança.", "Rua Direita, s/n, 5300-000 Bragança"),
    ("situado na Estrada de Benfica, n.º 300-A, loja 2, em Lisboa.", "Estrada de Benfica, n.º 300-A, loja 2"),
    ("residente na Rua Alves Redol, n.º 5 – 2.º Esq., Barreiro.", "Rua Alves Redol, n.º 5 – 2.º Esq., Barreiro"),
]

# street names with "ao"/"l'" inside, a Dutch postcode and town before the country, a Singapore unit number
NAME_PARTICLES_AND_CODES = [
    ("residente na Rua do Sol ao Rato, 7-A, 1250-000 Lisboa.", "Rua do Sol ao Rato, 7-A, 1250-000 Lisboa"),
    ("comprador: 27 avenue de l'Opéra, 75001 Paris, França.", "27 avenue de l'Opéra, 75001 Paris"),
    ("com sede em Keizersgracht 123, 1015 CJ Amsterdam, Países Baixos.", "Keizersgracht 123, 1015 CJ Amsterdam"),
    ("com sede em 1 Raffles Place, #20-01, Singapore 048616.", "1 Raffles Place, #20-01, Singapore 048616"),
]

# letter and invoice headers: capitals, a middle dot, a bar or a spaced hyphen before the postcode
HEADER_LAYOUTS = [
    ("AV. DA LIBERDADE, 110 – 1269-046 LISBOA", "AV. DA LIBERDADE, 110 – 1269-046 LISBOA"),
    ("Rua do Bonjardim, 45 · 4000-124 Porto · Tel. 222 000 111", "Rua do Bonjardim, 45 · 4000-124 Porto"),
    ("Sede: Rua de Ceuta, 118 - 4050-190 Porto", "Rua de Ceuta, 118 - 4050-190 Porto"),
]

# an administrative area between the street and the postcode belongs to the address
AREA_PARTS = [
    ("prédio rústico sito no Lugar do Outeiro, freguesia de Ronfe, 4805-000 Guimarães.",
     "Lugar do Outeiro, freguesia de Ronfe, 4805-000 Guimarães"),
    ("sito na Quinta do Paço, lote 3, freguesia de Alvalade, 1700-000 Lisboa, inscrito na matriz.",
     "Quinta do Paço, lote 3, freguesia de Alvalade, 1700-000 Lisboa"),
    ("sito no Lugar da Fonte, concelho de Mafra, 2640-000 Mafra.", "Lugar da Fonte, concelho de Mafra, 2640-000 Mafra"),
]

# street words of other languages before the name (Spanish, Catalan, Italian, French, Romanian, Polish), German
# ones after it, and their postcodes (5 and 6 digits, Polish 00-000)
FOREIGN_STREET_WORDS = [
    ("domiciliado em C/ Mayor, 10, 3.º izq., 28013 Madrid.", "C/ Mayor, 10, 3.º izq., 28013 Madrid"),
    ("com sede em Piazza Duomo 3, 20121 Milano.", "Piazza Duomo 3, 20121 Milano"),
    ("com sede em Chaussée de Charleroi 112, 1060 Bruxelles, Bélgica.", "Chaussée de Charleroi 112, 1060 Bruxelles"),
    ("com sede em Mariahilfer Straße 77, 1060 Wien, Áustria.", "Mariahilfer Straße 77, 1060 Wien"),
    ("com sede em ul. Marszałkowska 10, 00-590 Warszawa, Polónia.", "ul. Marszałkowska 10, 00-590 Warszawa"),
    ("com sede em Strada Victoriei 12, 010061 București, Roménia.", "Strada Victoriei 12, 010061 București"),
    # industrial estates, Spanish door and bay words, a floor's letter side, "d'" inside a street's name
    ("com sede no Polígono Industrial El Romeral, Nave 12, 46000 Valencia, Espanha.",
     "Polígono Industrial El Romeral, Nave 12, 46000 Valencia"),
    ("com sede em Calle de Serrano, 41, planta 2, puerta B, 28001 Madrid.",
     "Calle de Serrano, 41, planta 2, puerta B, 28001 Madrid"),
    ("com sede em Alameda Dr. Carlos d'Assumpção, n.os 263-265, Edifício Praia, 9.º andar H, Macau.",
     "Alameda Dr. Carlos d'Assumpção, n.os 263-265, Edifício Praia, 9.º andar H, Macau"),
]

# the town before "e" and a lower-case word ends the address as a comma would
TOWN_BEFORE_AND = [
    ("com sede na Rua do Comércio, n.º 12, Lisboa e filial no Porto.", "Rua do Comércio, n.º 12, Lisboa"),
    ("residente na Avenida da República, n.º 40, 2.º Dto., Coimbra e portador do cartão de cidadão.",
     "Avenida da República, n.º 40, 2.º Dto., Coimbra"),
    ("com escritório na Travessa do Carmo, 8, Braga e armazém em Guimarães.", "Travessa do Carmo, 8, Braga"),
]

# a district and a territory that is one city: the territory is the town (a country after a town is not)
DISTRICT_AND_CITY_TERRITORY = [
    ("residente na Rua de Évora, n.º 22, Taipa, Macau.", "Rua de Évora, n.º 22, Taipa, Macau"),
    ("com sede em 10 Anson Road, #12-01, Tanjong Pagar, Singapore.", "10 Anson Road, #12-01, Tanjong Pagar, Singapore"),
    ("com morada na Avenida Sidónio Pais, n.º 10, Coloane, Macau, e telefone", "Avenida Sidónio Pais, n.º 10, Coloane, Macau"),
    # a named district and its town
    ("residente na Rua Rainha Ginga, n.º 40, Bairro Ingombota, Luanda, Angola.", "Rua Rainha Ginga, n.º 40, Bairro Ingombota, Luanda"),
    ("residente na Rua das Flores, n.º 5, Urbanização Quinta Nova, Loulé, e portador",
     "Rua das Flores, n.º 5, Urbanização Quinta Nova, Loulé"),
    ("com sede em 12 Keji Road, Nanshan District, Shenzhen, China.", "12 Keji Road, Nanshan District, Shenzhen"),
]


@pytest.mark.parametrize("text,address", TOWN_AFTER_FLOOR + FOREIGN_LAYOUTS + UNIT_FIRST + STREET_THEN_PARTS
                         + HOUSE_NUMBER_SPELLINGS + NAME_PARTICLES_AND_CODES + HEADER_LAYOUTS + AREA_PARTS
                         + FOREIGN_STREET_WORDS + TOWN_BEFORE_AND + DISTRICT_AND_CITY_TERRITORY)
def test_an_address_in_any_common_layout_is_one_span(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]


@pytest.mark.parametrize("text,address", [
    ("residing at 17 Rua Augusto Gil, 3rd floor left, Amadora, since 2019.",
     "17 Rua Augusto Gil, 3rd floor left, Amadora"),
    # (Hong Kong, like Macau and Singapore, is the town after a district)
    ("with offices at Room 2203, Tower 2, Lippo Centre, 89 Queensway, Admiralty, Hong Kong.",
     "Room 2203, Tower 2, Lippo Centre, 89 Queensway, Admiralty, Hong Kong"),
    ("residing at 14 rue de la Paix, 75002 Paris, France.", "14 rue de la Paix, 75002 Paris"),
    ("domiciled at Calle Mayor, 10, 3rd left, 28013 Madrid, Spain.", "Calle Mayor, 10, 3rd left, 28013 Madrid"),
    ("registered office at Friedrichstraße 123, 10117 Berlin, Germany.", "Friedrichstraße 123, 10117 Berlin"),
    ("at Avenida 5 de Outubro, No. 12, 1050-047 Lisbon.", "Avenida 5 de Outubro, No. 12, 1050-047 Lisbon"),
    ("based at Paseo de Gracia, 45, 08007 Barcelona, Spain.", "Paseo de Gracia, 45, 08007 Barcelona"),
    ("based at Rue du Rhône 65, 1204 Geneva.", "Rue du Rhône 65, 1204 Geneva"),
    ("based at Mariahilfer Straße 77, 1060 Vienna, Austria.", "Mariahilfer Straße 77, 1060 Vienna"),
    # a house number after a lower-case "no.", a floor's side in capitals, the town before "and"
    ("registered office at Rua do Comércio, no. 12, 1100-150 Lisbon.", "Rua do Comércio, no. 12, 1100-150 Lisbon"),
    ("resident at Avenida da República, no. 40, 2nd Right, Coimbra and holder of a citizen card.",
     "Avenida da República, no. 40, 2nd Right, Coimbra"),
    ("resident at Rua de Évora, no. 22, Taipa, Macao.", "Rua de Évora, no. 22, Taipa, Macao"),
])
def test_an_english_address_in_any_common_layout_is_one_span(en, text, address):
    assert _en(en, text, "ADDRESS") == [address]


@pytest.mark.parametrize("text", [
    "A reunião decorreu na sala 3, em Lisboa.",
    "O prédio fica em Lisboa, Portugal.",
    "nos termos do artigo 5, n.º 2, Lisboa e Porto",
])
def test_a_room_or_town_alone_is_no_address(anonymizer, text):
    assert _spans(anonymizer, text, "ADDRESS") == []


# a country calling code in brackets without "+": a phone when the rest is a valid number of that country
BRACKETED_COUNTRY_CODE = [
    ("Telefone do escritório: (853) 2871 5520; fax", "(853) 2871 5520"),
    ("Contacto: (971) 50 123 4567.", "(971) 50 123 4567"),
    ("Linha direta (44) 20 7946 0321.", "(44) 20 7946 0321"),
]


@pytest.mark.parametrize("text,phone", BRACKETED_COUNTRY_CODE)
def test_a_bracketed_country_code_makes_a_phone_on_both_sides(anonymizer, en, text, phone):
    assert _spans(anonymizer, text, "NAMEID") == [phone]
    assert _en(en, text, "NAMEID") == [phone]


# digits that open with 00 inside a code with a letter prefix, or an account number, are no international phone:
# the code stays whole
CODES_WITH_00 = [
    ("apólice n.º AU-0045.1123.77, em vigor.", "AU-0045.1123.77"),
    ("autorização de residência n.º C 0071 3345, válida", "C 0071 3345"),
    ("CPE PT 0002 0000 1234 5678 AB, contador", "PT 0002 0000 1234 5678 AB"),
]


@pytest.mark.parametrize("text,code", CODES_WITH_00)
def test_a_code_opening_with_00_is_not_cut_as_a_phone(anonymizer, text, code):
    assert code in _spans(anonymizer, text, "NAMEID")


# a company is called later by the part of its name before a dash, or by the first two words of a longer name;
# a short form made of ordinary words only as written, capitalized
COMPANY_SHORT_FORMS = [
    (["A Serra Alta – Gestão de Ativos, S.A. comprou o imóvel.", "Em 2020, a Serra Alta vendeu-o."], "Serra Alta"),
    (["Contratou a Quinta Lourel Vinhos Finos, Lda., NIPC 508 000 000.", "A Quinta Lourel pagou."],
     "Quinta Lourel"),
    (["Fornecedor: Pedra Azul Mármores, S.A.", "a Pedra Azul entregou a pedra azul em março."], "Pedra Azul"),
]


@pytest.mark.parametrize("doc,short", COMPANY_SHORT_FORMS)
def test_a_company_is_named_later_by_its_short_form(anonymizer, doc, short):
    found = anonymizer.recognize_document(doc)
    assert [m.text for m in found[1] if m.category == "ORGANIZATION"] == [short]


# English dates: a list or range of days before the month, a day in words without "day of", dashes between the
# parts, "first"/"second" (which text2num keeps in words); a sentence's full stop is no abbreviation's dot
ENGLISH_DATES = [
    ("hearings held on 15 and 17 February 2023 in Lisbon.", "15 and 17 February 2023"),
    ("between 3, 4 and 5 May 2024.", "3, 4 and 5 May 2024"),
    ("from 1 to 15 March 2024 inclusive.", "1 to 15 March 2024"),
    ("in Lisbon, on twenty-two March two thousand and twenty-three.", "twenty-two March two thousand and twenty-three"),
    ("delivered on 15-Feb-2023.", "15-Feb-2023"),
    ("on the first of June.", "first of June"),
]


@pytest.mark.parametrize("text,date", ENGLISH_DATES)
def test_an_english_date_in_its_common_layouts(en, text, date):
    assert _en(en, text, "DATE") == [date]


# an investment or pension fund is a company: its name before the dash belongs to it
FUNDS = [
    ("no fundo Tejo Crescimento – Fundo de Investimento Imobiliário Fechado, geridas pela sociedade.",
     "Tejo Crescimento – Fundo de Investimento Imobiliário Fechado"),
    ("subscreveu unidades do Fundo de Pensões Aberto Horizonte Seguro.", "Fundo de Pensões Aberto Horizonte Seguro"),
    ("o Fundo Imobiliário Ribeira Nova comprou o prédio.", "Fundo Imobiliário Ribeira Nova"),
]


@pytest.mark.parametrize("text,fund", FUNDS)
def test_a_fund_is_an_organization(anonymizer, text, fund):
    assert _spans(anonymizer, text, "ORGANIZATION") == [fund]


# letters' courtesy forms and reference markers are no names; a public institute's ", I.P." ends its name
LETTER_FORMS = [
    "Acusamos a receção da reclamação de V. Ex.ª, que mereceu a nossa atenção.",
    "Informamos V. Exa. de que o pedido foi deferido.",
    "Lisboa, 3 de maio de 2024 – N/Ref.ª 2024/77",
]


@pytest.mark.parametrize("text", LETTER_FORMS)
def test_courtesy_forms_and_reference_markers_are_no_names(anonymizer, text):
    assert _spans(anonymizer, text, "PERSON") + _spans(anonymizer, text, "ORGANIZATION") == []


@pytest.mark.parametrize("text,body", [
    ("inscrita no Instituto da Vinha e do Vinho, I.P. com o número", "Instituto da Vinha e do Vinho, I.P."),
    ("junto do Instituto de Gestão Financeira da Educação, I.P., em Lisboa", "Instituto de Gestão Financeira da Educação, I.P."),
    ("pago pelo Instituto do Emprego e Formação Profissional, I.P.", "Instituto do Emprego e Formação Profissional, I.P."),
])
def test_a_public_institutes_form_ends_its_name(anonymizer, text, body):
    assert _spans(anonymizer, text, "ORGANIZATION") == [body]


# a place with its office's number ("Braga-1") ends a tax office's name; a code such as COVID-19 is no name word
@pytest.mark.parametrize("text,body", [
    ("comunicada ao Serviço de Finanças de Tavira-1 para efeitos do imposto", "Serviço de Finanças de Tavira-1"),
    ("entregue no Serviço de Finanças de Lisboa-3.", "Serviço de Finanças de Lisboa-3"),
    ("no Serviço de Finanças de Vila Nova de Gaia-2, em março", "Serviço de Finanças de Vila Nova de Gaia-2"),
])
def test_an_offices_number_after_its_place_belongs_to_the_name(anonymizer, text, body):
    assert _spans(anonymizer, text, "ORGANIZATION") == [body]


def test_a_code_with_a_number_is_no_name_word(anonymizer):
    assert _spans(anonymizer, "a pandemia de COVID-19 afetou as vendas", "ORGANIZATION") == []


# a registry's dotted abbreviation and the town right after it, without "de", are one registry
@pytest.mark.parametrize("text,body", [
    ("Capital social 5 000,00 € – C.R.C. Viseu", "C.R.C. Viseu"),
    ("A C.R.P. Sintra emitiu a certidão.", "C.R.P. Sintra"),
    ("Registada na C.R.Predial Loulé sob a ficha 12", "C.R.Predial Loulé"),
])
def test_a_registry_abbreviation_and_its_town(anonymizer, text, body):
    assert _spans(anonymizer, text, "ORGANIZATION") == [body]


# a date in words has a value on both sides, so the English date takes its Portuguese counterpart's number
@pytest.mark.parametrize("text,english,value", [
    ("vinte e dois dias do mês de março de dois mil e vinte e três", False, (22, 3, 2023)),
    ("primeiro de junho de dois mil e vinte", False, (1, 6, 2020)),
    ("aos três dias do mês de fevereiro de dois mil e vinte e cinco", False, (3, 2, 2025)),
    ("the twenty-second day of March two thousand and twenty-three", True, (22, 3, 2023)),
    ("twenty-two March two thousand and twenty-three", True, (22, 3, 2023)),
    ("the first of June", True, (1, 6, None)),
])
def test_a_date_in_words_has_its_value(text, english, value):
    from paranon.align.values import date_value

    assert date_value(text, english=english) == value



@pytest.mark.parametrize("text", ["born in the parish of Vila Verde on 3 May", "Quinta do Lago, 12 March 2024",
                                  "the Monte Alto estate"])
def test_a_portuguese_street_word_without_a_number_is_no_english_address(en, text):
    assert _en(en, text, "ADDRESS") == []


# a private document's number after its noun is an identifier however short; an article's number stays public
@pytest.mark.parametrize("text,number", [
    ("RECIBO DE RENDA ELETRÓNICO N.º 58", "58"),
    ("Fatura-recibo n.º 31, emitida em março", "31"),
    ("Orçamento n.º 17 aceite pelo cliente.", "17"),
    # one digit, with a letter or not
    ("Recibo n.º 4, no valor de trezentos euros.", "4"),
    ("nos termos da apólice n.º 9 da seguradora.", "9"),
    ("A encomenda n.º 8-B foi entregue.", "8-B"),
])
def test_a_private_documents_short_number_is_an_identifier(anonymizer, en, text, number):
    assert _spans(anonymizer, text, "NAMEID") == [number]


@pytest.mark.parametrize("text", ["nos termos do artigo 5.º, n.º 12", "Decisão n.º 31 do Comité Misto"])
def test_a_short_number_after_a_public_noun_stays_visible(anonymizer, text):
    assert _spans(anonymizer, text, "NAMEID") == []


@pytest.mark.parametrize("text,number", [("Receipt no. 4, amounting to 300 euros.", "4"),
                                         ("the credit note no. 2-A was issued", "2-A"), ("Delivery note 3, signed by the driver.", "3")])
def test_an_english_documents_one_digit_number_is_an_identifier(en, text, number):
    assert _en(en, text, "NAMEID") == [number]


@pytest.mark.parametrize("text", ["nos termos do artigo 7 do contrato, fatura incluída", "a fatura de 3 páginas",
                                  "a 2.ª fatura"])
def test_a_one_digit_number_away_from_a_documents_number_word_stays_visible(anonymizer, text):
    assert _spans(anonymizer, text, "NAMEID") == []


# foreign company, tax and customs numbers after their names; a list of codes of one layout after its trigger; a
# VAT number's country code; a property's article after "inscrito sob o artigo"
@pytest.mark.parametrize("text, codes", [
    ("Société Alpine SARL, SIRET 533 210 778 00014, Grenoble.", ["533 210 778 00014"]),
    ("o nosso GSTIN é 29ABCPK7712Q1Z3.", ["29ABCPK7712Q1Z3"]),
    ("o contentor TGHU 773201-5 chegou ao porto.", ["TGHU 773201-5"]),
    ("portadores dos passaportes n.os PA1234567, PB7654321 e PC1122334, residentes", ["PA1234567", "PB7654321", "PC1122334"]),
    ("com o número de IVA FR 44 533210778 e sede em Lyon.", ["FR 44 533210778"]),
    ("número de IVA DE 311 902 457, Mainz.", ["DE 311 902 457"]),
    ("prédio inscrito sob o artigo 2215 da freguesia de Ronfe.", ["2215"]),
])
def test_foreign_identifiers_after_their_names(anonymizer, text, codes):
    assert _spans(anonymizer, text, "NAMEID") == codes


@pytest.mark.parametrize("text", ["A SIRET e o GSTIN são números.", "o contentor ficou no cais"])
def test_an_identifiers_name_alone_is_no_name(anonymizer, text):
    assert _spans(anonymizer, text, "ORGANIZATION") == [] and _spans(anonymizer, text, "NAMEID") == []


# a legal form after another ("Unipessoal Lda.", "Consulting Ltd", "Pvt. Ltd."): the company's name runs over both
@pytest.mark.parametrize("text, company", [
    ("A arrendatária é a Casa do Largo – Cafetaria, Unipessoal Lda., NIPC 516000000.", "Casa do Largo – Cafetaria, Unipessoal Lda."),
    ("fatura da Harwood & Pike Consulting Ltd de março", "Harwood & Pike Consulting Ltd"),
    ("A Lakshmi Cotton Mills Pvt. Ltd. exporta fio.", "Lakshmi Cotton Mills Pvt. Ltd."),
])
def test_a_legal_form_after_another_belongs_to_the_name(anonymizer, text, company):
    assert _spans(anonymizer, text, "ORGANIZATION") == [company]


# a range of days written with a dash before a date sharing its month and year is one date; a number before a
# spaced dash is not a day
@pytest.mark.parametrize("text, dates", [
    ("A feira decorre de 12–15 de maio de 2026, em Milão.", ["12–15 de maio de 2026"]),
    ("Período de faturação: 1–7.03.2025 (semana 10).", ["1–7.03.2025"]),
    ("Recolha nos dias 3–4 de junho.", ["3–4 de junho"]),
    ("Guia n.º 7 - 18.09.2025, entregue.", ["18.09.2025"]),
])
def test_a_range_of_days_with_a_dash_is_one_date(anonymizer, text, dates):
    assert _spans(anonymizer, text, "DATE") == dates


# a public office's name that lists its competences after a comma and ends with its place is one name
@pytest.mark.parametrize("text, body", [
    ("matriculada na Conservatória do Registo Civil, Predial e Comercial de Ourique, com o capital",
     "Conservatória do Registo Civil, Predial e Comercial de Ourique"),
    ("na Conservatória do Registo Civil, Predial, Comercial e Automóvel de Vila Nova de Cerveira, sob o n.º",
     "Conservatória do Registo Civil, Predial, Comercial e Automóvel de Vila Nova de Cerveira"),
    ("pela Conservatória do Registo Predial, Comercial e Automóvel de Sines.",
     "Conservatória do Registo Predial, Comercial e Automóvel de Sines"),
])
def test_a_registry_named_by_its_competences_is_one_name(anonymizer, text, body):
    assert _spans(anonymizer, text, "ORGANIZATION") == [body]


# Italian street particles, a province's or canton's code after the town, the town after a PO box
@pytest.mark.parametrize("text, address", [
    ("com sede em Via dei Calzaiuoli 7, 50122 Firenze FI, Itália.", "Via dei Calzaiuoli 7, 50122 Firenze FI"),
    ("com sede em Piazza delle Erbe 3, 37121 Verona VR, Itália.", "Piazza delle Erbe 3, 37121 Verona VR"),
    ("com sede em Seestrasse 40, Postfach 12, 8802 Kilchberg ZH, Suíça.", "Seestrasse 40, Postfach 12, 8802 Kilchberg ZH"),
    ("com sede na Avenida Samora Machel, n.º 30, Caixa Postal 118, Beira, Moçambique.",
     "Avenida Samora Machel, n.º 30, Caixa Postal 118, Beira"),
])
def test_province_codes_particles_and_the_town_after_a_po_box(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]
