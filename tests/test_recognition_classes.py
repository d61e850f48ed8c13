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


# identifiers in the layouts people type, each with its own class
IDENTIFIERS = [
    # a user name on a social network
    ("usava o perfil «@ana.rebelo77» no Instagram", "@ana.rebelo77"),
    ("escreveu à conta @tiago_fonseca sobre o assunto", "@tiago_fonseca"),
    ("o utilizador @joana.mm respondeu", "@joana.mm"),
    # a Portuguese car plate
    ("Veículo: 34-QT-88, ligeiro de passageiros", "34-QT-88"),
    ("a viatura de matrícula AZ-51-KD estava estacionada", "AZ-51-KD"),
    ("o motociclo 71-40-RB circulava", "71-40-RB"),
    # an invoice, receipt or credit note number: document type, series, number
    ("Fatura n.º FT TRX2024/0917 de 3 de maio", "FT TRX2024/0917"),
    ("Recibo RC A2023/55 relativo à renda", "RC A2023/55"),
    ("anula a nota de crédito NC LOJA7/203 emitida", "NC LOJA7/203"),
    # a property's registry and tax entries: "sob o artigo", "sob o número"
    ("inscrito na matriz predial rústica sob o artigo 2214 da freguesia", "2214"),
    ("descrito na Conservatória do Registo Predial de Tomar sob o número 5120", "5120"),
    ("inscrito na matriz urbana sob o artigo 907-P", "907-P"),
    # a registration phrase names a number whatever its layout, amounts' included
    ("o pedido de registo de marca n.º 655 312 foi publicado", "655 312"),
    ("com o identificador de credor PT41ZZZ778120 no mandato", "PT41ZZZ778120"),
    ("o código LEI 2138009QWERTY1234567 da sociedade", "2138009QWERTY1234567"),
    # a check digit in brackets after the number, an area code in brackets before it
    ("titular do bilhete de identidade n.º 5512903(7) de Macau", "5512903(7)"),
    ("telefone (21) 3456 7890 para marcações", "(21) 3456 7890"),
    ("tel. (852) 2345 6789 do escritório", "(852) 2345 6789"),
]


@pytest.mark.parametrize("text,code", IDENTIFIERS)
def test_identifiers_in_the_layouts_people_type(anonymizer, text, code):
    assert code in _spans(anonymizer, text, "NAMEID")


# legislation keeps its numbers: paragraph numbers, articles, acts stay visible
PUBLIC_NUMBERS = [
    "Nos termos do n.º 1 do artigo 5.º do Regulamento (UE) n.º 1234/2019, a Comissão decide.",
    "O disposto no artigo 12.º, n.º 3, aplica-se sob o artigo 4.º da Diretiva 2006/112/CE.",
    "A Decisão n.o 64/2018 e a Lei n.º 7/2009 aplicam-se.",
]


@pytest.mark.parametrize("text", PUBLIC_NUMBERS)
def test_legislation_numbers_are_never_personal_identifiers(anonymizer, text):
    assert _spans(anonymizer, text, "NAMEID") == []


# dates: a list of days before a written date, and dates in other languages' layouts (babel's month names)
DATES = [
    ("as buscas decorreram entre 11 e 13 de outubro de 2021.", "11 e 13 de outubro de 2021"),
    ("Nos dias 2, 3 e 4 de julho de 2019 esteve ausente.", "2, 3 e 4 de julho de 2019"),
    ("a audiência foi de 9 a 12 de março de 2020.", "9 a 12 de março de 2020"),
    ("Signed at Leeds, 14 February 2024", "14 February 2024"),
    ("made this 3rd day of June 2022 between", "3rd day of June 2022"),
    ("Fait à Lyon, le 21 septembre 2023", "21 septembre 2023"),
    ("dated November 5, 2021 and signed", "November 5, 2021"),
]


@pytest.mark.parametrize("text,date", DATES)
def test_dates_written_in_lists_and_other_languages(anonymizer, text, date):
    assert _spans(anonymizer, text, "DATE") == [date]


# an organisation's name and parts set off by dashes are one name
ORGANIZATIONS = [
    # a numbered section after a court
    ("o processo corre no Juízo Local Cível de Faro – Juiz 2, desde", "Juízo Local Cível de Faro – Juiz 2"),
    ("remetido ao Juízo de Execução de Setúbal – Juiz 5.", "Juízo de Execução de Setúbal – Juiz 5"),
    # a court and its section, both with a head noun
    ("no Tribunal Judicial da Comarca de Évora – Juízo Central Criminal, que",
     "Tribunal Judicial da Comarca de Évora – Juízo Central Criminal"),
    # a name before a dash and a body's head noun
    ("a Apimonte – Associação de Apicultores do Marão apresentou",
     "Apimonte – Associação de Apicultores do Marão"),
    ("o CEPRA – Centro de Formação Profissional da Reparação informou",
     "CEPRA – Centro de Formação Profissional da Reparação"),
    # a company's first words, however ordinary, before a dash and its legal form
    ("Vendedora: CASA DO MOINHO – TURISMO RURAL, LDA., com sede", "CASA DO MOINHO – TURISMO RURAL, LDA."),
    ("PEDRA BRANCA – MÁRMORES E GRANITOS, S.A.", "PEDRA BRANCA – MÁRMORES E GRANITOS, S.A."),
]


@pytest.mark.parametrize("text,org", ORGANIZATIONS)
def test_a_body_and_its_parts_set_off_by_dashes_are_one_name(anonymizer, text, org):
    assert org in _spans(anonymizer, text, "ORGANIZATION")


# a place before a dash is no part of a body's name
@pytest.mark.parametrize("text,org", [
    ("Lisboa – Tribunal da Relação decidiu", "Tribunal da Relação"),
    ("Coimbra – Câmara Municipal de Coimbra aprovou", "Câmara Municipal de Coimbra"),
    ("Porto – Associação Comercial do Porto", "Associação Comercial do Porto"),
])
def test_a_place_before_a_dash_stays_out_of_the_name(anonymizer, text, org):
    assert _spans(anonymizer, text, "ORGANIZATION") == [org]


# legislation: an act's date, its number, the body that issued it and the polities it names stay public
LEGISLATION = [
    # the date after an act's citation, the act's own "entra em vigor", its closing formula
    "O Regulamento (UE) n.º 2020/345 do Parlamento Europeu e do Conselho, de 12 de março de 2020, aplica-se.",
    "A presente decisão entra em vigor em 2 de fevereiro de 2021.",
    "Feito em Luxemburgo, em 14 de abril de 2022.",
    # the act's number after n.º in its title, a document number in brackets after a title
    "Decisão do Comité Misto do EEE n.o 88/2016, de 29 de abril de 2016",
    "que altera o anexo II (Regulamentação técnica) do Acordo EEE [2018/1021]",
    "Decisão do Conselho de Associação n.º 3/2015 relativa às regras",
    # the Union, the Community and Euratom, and a bare "União" in a text that names the European Union
    "A União Europeia e a Comunidade Europeia da Energia Atómica (Euratom) celebraram; a União notifica.",
    "O Estado-Membro em causa e a CEE informam a Comissão.",
    "Os Estados-Membros e a União cooperam no âmbito da UE.",
]


@pytest.mark.parametrize("text", LEGISLATION)
def test_legislation_keeps_its_acts_dates_numbers_and_polities_visible(anonymizer, text):
    assert anonymizer.recognize_document([text])[0] == []


# the same shapes in private text stay masked: a contract's dates, a bare "União" as a party in a court case
PRIVATE = [
    ("O contrato entra em vigor em 1 de março de 2024.", "DATE", "1 de março de 2024"),
    ("A União recorreu da sentença proferida pelo juiz.", "ORGANIZATION", "União"),
    ("Lisboa, 3 de junho de 2023 – a gerência", "DATE", "3 de junho de 2023"),
]


@pytest.mark.parametrize("text,category,span", PRIVATE)
def test_private_text_keeps_its_dates_and_parties_masked(anonymizer, text, category, span):
    assert span in _spans(anonymizer, text, category)


# a country's name is a public place, however a heading or a sentence start cuts it
@pytest.mark.parametrize("text", [
    "ACORDO ENTRE OS ESTADOS UNIDOS DA AMÉRICA E A UNIÃO EUROPEIA",
    "CONVENÇÃO ENTRE O REINO DA DINAMARCA E O REINO DA NORUEGA",
    "PROTOCOLO ENTRE OS ESTADOS UNIDOS MEXICANOS E A COMUNIDADE",
])
def test_a_country_cut_by_a_heading_stays_visible(anonymizer, text):
    assert anonymizer.recognize_document([text])[0] == []


# head nouns of public offices abroad and legal-form tails of municipal companies and law firms
@pytest.mark.parametrize("text,org", [
    ("reconhecida no Consulado-Geral de Portugal em Toronto, em", "Consulado-Geral de Portugal em Toronto"),
    ("apresentada na Embaixada de Angola em Lisboa.", "Embaixada de Angola em Lisboa"),
    ("o débito direto a favor da Águas do Vale Sereno, E.M., foi cancelado", "Águas do Vale Sereno, E.M."),
])
def test_offices_abroad_and_municipal_companies(anonymizer, text, org):
    assert org in _spans(anonymizer, text, "ORGANIZATION")
