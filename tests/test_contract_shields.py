"""Contracts cite public acts and name private parties in one sentence: the shields built for legislation (bodies in
an EU act's citation, designations and their issuers, a term's bracketed acronym, kinds of product) keep what they
were built for and do not hide a private party of a contract, a letter or an invoice. Every example is written for
this test (none is taken from an evaluation set); three variants a class."""

from __future__ import annotations

import pytest

from tests.test_contract_layouts import _spans
from tests.test_public_private_shapes import _masked

PRIVATE = [
    # a body of a named town, in a sentence that cites an EU act, is a local body: masked like a party
    ("Os dados são tratados nos termos do Regulamento (UE) 2016/679, sendo competente o Tribunal Judicial da Comarca "
     "de Viseu.", "Tribunal Judicial da Comarca de Viseu", "ORGANIZATION"),
    ("Ao abrigo da Diretiva 2014/24/UE, a Câmara Municipal de Tondela abriu o concurso.", "Câmara Municipal de Tondela",
     "ORGANIZATION"),
    ("Nos termos do Regulamento (UE) n.º 1305/2013, a Junta de Freguesia de Arcozelo recebeu o apoio.",
     "Junta de Freguesia de Arcozelo", "ORGANIZATION"),
    # letters and a number after a private document's noun are its number, no standard's designation, and the
    # acronym after it is the issuing company's, no standard body's
    ("Conforme a nossa proposta PV 2025/31 da LUSOTEC, o prazo é de 30 dias.", "PV 2025/31", "NAMEID"),
    ("Conforme a nossa proposta PV 2025/31 da LUSOTEC, o prazo é de 30 dias.", "LUSOTEC", "ORGANIZATION"),
    ("Junto enviamos o orçamento ORC 2024/77 para a reparação do telhado.", "ORC 2024/77", "NAMEID"),
    ("A mercadoria segue com a Guia de Remessa GT 2023/512 da CARVIMAR.", "GT 2023/512", "NAMEID"),
    # a bracketed acronym after a body's noun in the singular, or a party's role noun, is that body's, no term's
    ("A associação de pais (APEBV) organizou a festa.", "APEBV", "ORGANIZATION"),
    ("O banco mutuante (BCRV) exige a hipoteca.", "BCRV", "ORGANIZATION"),
    ("A entidade patronal (NORLIMPA) pagou o subsídio de férias.", "NORLIMPA", "ORGANIZATION"),
    # a singular article before a plural word of the language that opens a name: a company's elided noun
    ("A Sistemas Guadiana instalou a central telefónica.", "Sistemas Guadiana", "ORGANIZATION"),
    ("O material foi fornecido pela Cabos do Sado.", "Cabos do Sado", "ORGANIZATION"),
    ("A pintura da fachada foi adjudicada à Tintas Aurora.", "Tintas Aurora", "ORGANIZATION"),
]


@pytest.mark.parametrize("text, span, category", PRIVATE)
def test_a_private_party_beside_public_text_stays_masked(anonymizer, text, span, category):
    assert (span, category) in _masked(anonymizer, text)


# what the shields were built for stays public: an EU body cited with its act, a term's acronym, a kind of product
PUBLIC = [
    ("Regulamento (UE) 2018/1139 que cria a Agência da União Europeia para a Segurança da Aviação (JO L 212).",
     "Agência da União Europeia"),
    ("os sistemas de gestão do tráfego aéreo (ATM) e os seus componentes", "ATM"),
    ("As associações de produtores (APX) apresentam os pedidos.", "APX"),
    ("Os Sistemas de Navegação por Satélite são instalados a bordo.", "Sistemas de Navegação"),
]


@pytest.mark.parametrize("text, public", PUBLIC)
def test_public_text_stays_visible(anonymizer, text, public):
    assert not any(public in t for t, _ in _masked(anonymizer, text)), _masked(anonymizer, text)


# a singular article before a woman's name (a first name ending in -s) is no company's elided noun
@pytest.mark.parametrize("text, name", [
    ("A Inês assinou o contrato.", "Inês"),
    ("O cheque foi entregue à Lurdes.", "Lurdes"),
    ("A procuração foi passada pela Dolores.", "Dolores"),
])
def test_a_womans_name_after_her_article_stays_a_person(anonymizer, text, name):
    assert (name, "PERSON") in _masked(anonymizer, text)


# an agreement numbered by its parties opens a contract, no public act: its number is an identifier and its dates,
# the date it takes effect too, are the parties' (a state's "presente Acordo", capitalized, stays an act)
AGREEMENTS = [
    ["Protocolo de Cooperação n.º 7/2025", "O presente protocolo produz efeitos a 2 de maio de 2025."],
    ["Acordo de Parceria n.º 31/2024", "A primeira reunião realiza-se a 9 de outubro de 2024."],
    ["Protocolo n.º 2/2023 entre o Município de Arganil e o Clube Naval", "As partes assinam em 14 de julho de 2023."],
]


@pytest.mark.parametrize("texts", AGREEMENTS)
def test_a_numbered_agreement_between_parties_is_no_public_act(anonymizer, texts):
    found = anonymizer.recognize_document(texts)
    assert [m.category for m in found[0] if "/" in m.text] == ["NAMEID"]
    assert [m.category for m in found[1]] == ["DATE"]


def _orgs(anonymizer, texts: list[str]) -> list[list[str]]:
    return [[m.text for m in ms if m.category == "ORGANIZATION"] for ms in anonymizer.recognize_document(texts)]


# company and association names as contracts write them: the sentence's article stays out of a dash-joined name,
# ordinary words before a dash name the body after an article, two words joined by "e" open a name, and the legal
# forms of groupings, inter-municipal companies and social solidarity institutions end one
ORG_NAMES = [
    ("A Ponte & Arco – Carpintaria, Lda. entregou as portas.", "Ponte & Arco – Carpintaria, Lda."),
    ("A Vale Fundo – Sociedade Agrícola, Lda. vendeu a colheita.", "Vale Fundo – Sociedade Agrícola, Lda."),
    ("Os Companheiros da Serra – Associação Desportiva organizam a corrida.",
     "Companheiros da Serra – Associação Desportiva"),
    ("Contratou-se a Rio Claro – Associação Juvenil para o campo de férias.", "Rio Claro – Associação Juvenil"),
    ("O donativo foi entregue à Mão Amiga – Instituição Particular de Solidariedade Social.",
     "Mão Amiga – Instituição Particular de Solidariedade Social"),
    ("A Pedra e Cal – Restauro de Edifícios, Lda. apresentou a proposta.",
     "Pedra e Cal – Restauro de Edifícios, Lda."),
    ("A Lã e Linho Confeções, Lda. encomendou os tecidos.", "Lã e Linho Confeções, Lda."),
    ("O consórcio Vias do Centro, ACE executa a obra.", "Vias do Centro, ACE"),
    ("A Resíduos do Planalto, EIM, S.A. recolhe o lixo.", "Resíduos do Planalto, EIM, S.A."),
    ("O Centro Paroquial de Gondar, IPSS, acolhe as crianças.", "Centro Paroquial de Gondar, IPSS"),
]


@pytest.mark.parametrize("text, name", ORG_NAMES)
def test_a_company_or_association_name_is_one_span(anonymizer, text, name):
    assert name in _orgs(anonymizer, [text])[0]


# the words before a dash, "e" inside them, are the company's short name later in the document
@pytest.mark.parametrize("texts, short", [
    (["A Pão e Mel – Pastelaria, Lda. arrendou a loja.", "A Pão e Mel pagou a renda."], "Pão e Mel"),
    (["A Cor e Forma – Design, Lda. criou o logótipo.", "A Cor e Forma cede os direitos."], "Cor e Forma"),
    (["A Fio e Agulha – Retrosaria, Lda. fornece os botões.", "A Fio e Agulha fatura mensalmente."], "Fio e Agulha"),
])
def test_a_dashed_companys_first_part_is_its_short_name(anonymizer, texts, short):
    assert short in _orgs(anonymizer, texts)[1]


def _addresses(anonymizer, text: str) -> list[str]:
    return _spans(anonymizer, text, "ADDRESS")


# before a Portuguese postcode, the parts an address's opening word announces are the address's, with no street
# word among them (a house's or an estate's name, a hamlet); a street "sem número" goes on to its locality
ADDRESSES = [
    ("residente em Vivenda Os Pinheiros, Casal da Serra, 2490-123 Ourém, desde 2010.",
     "Vivenda Os Pinheiros, Casal da Serra, 2490-123 Ourém"),
    ("com domicílio em Monte da Azinheira, Vale de Água, 7570-001 Grândola.",
     "Monte da Azinheira, Vale de Água, 7570-001 Grândola"),
    ("Morada: Chalé n.º 7, Aldeia da Luz, 7240-100 Mourão", "Chalé n.º 7, Aldeia da Luz, 7240-100 Mourão"),
    ("residente na Rua do Castelo, sem número, Vila Cova, Penafiel.", "Rua do Castelo, sem número, Vila Cova"),
    ("com sede na Travessa da Eira, sem número, Aldeia Nova, Alandroal.", "Travessa da Eira, sem número, Aldeia Nova"),
    ("residente no Caminho Velho, sem número, Lugar do Souto, Tondela.", "Caminho Velho, sem número, Lugar do Souto"),
]


@pytest.mark.parametrize("text, address", ADDRESSES)
def test_an_address_announced_before_its_postcode_is_one_span(anonymizer, text, address):
    assert address in _addresses(anonymizer, text)


# a region or state between a postcode's town and the country is the address's last part (the country is not)
@pytest.mark.parametrize("text, address", [
    ("com sede em 500 Main Street, Austin 78701, Texas, Estados Unidos.", "500 Main Street, Austin 78701, Texas"),
    ("com sede em 12 Queen Street, Brisbane 4000, Queensland, Austrália.", "12 Queen Street, Brisbane 4000, Queensland"),
    ("residente em Plot No. 9, Sector 4, Vashi, Navi Mumbai 400703, Maharashtra, Índia.",
     "Plot No. 9, Sector 4, Vashi, Navi Mumbai 400703, Maharashtra"),
])
def test_a_region_before_the_country_ends_the_address(anonymizer, text, address):
    assert _addresses(anonymizer, text) == [address]


# a VAT number's country code, a space, then a number that opens with a letter (Spanish, Irish, Dutch layouts)
@pytest.mark.parametrize("text, vat", [
    ("A compradora, com o VAT number: ES A28017895, paga a 60 dias.", "ES A28017895"),
    ("NIF/IVA: ES B84345678", "ES B84345678"),
    ("registada com o n.º de IVA IE 9S99999L na Irlanda.", "IE 9S99999L"),
])
def test_a_vat_number_with_a_letter_after_its_country_is_one_identifier(anonymizer, text, vat):
    assert (vat, "NAMEID") in _masked(anonymizer, text)


# a trade's or a care home's noun opens a business's name (a letterhead's first line, a party in running text), and
# "Nossa Senhora" inside a name is no title that ends it
@pytest.mark.parametrize("text, name", [
    ("Serralharia Nova do Lis", "Serralharia Nova do Lis"),
    ("A Tipografia Progresso Bracarense imprimiu os folhetos.", "Tipografia Progresso Bracarense"),
    ("Pagámos à Garrafeira Boa Cepa a encomenda de vinho.", "Garrafeira Boa Cepa"),
    ("O Lar Sol Poente acolhe vinte utentes.", "Lar Sol Poente"),
    ("A Creche Os Traquinas fecha em agosto.", "Creche Os Traquinas"),
    ("O Externato Jardim Azul matriculou a menor.", "Externato Jardim Azul"),
    ("A Farmácia Nossa Senhora da Luz, Lda. fornece os medicamentos.", "Farmácia Nossa Senhora da Luz, Lda."),
    ("O Centro Social Nossa Senhora das Dores acolhe idosos.", "Centro Social Nossa Senhora das Dores"),
    ("A Pastelaria Nossa Senhora do Carmo, Lda. forneceu os bolos.", "Pastelaria Nossa Senhora do Carmo, Lda."),
])
def test_a_trade_or_care_noun_opens_a_business_name(anonymizer, text, name):
    assert name in _orgs(anonymizer, [text])[0]


# a deed's date in words ("dias de", digits repeated in brackets) is a private party's, its signature formula too;
# a day before an abbreviated month and its year, no "de" between
DATES = [
    ("Feito em Tomar, aos doze dias de março de dois mil e vinte e quatro, em duplicado.",
     "doze dias de março de dois mil e vinte e quatro"),
    ("aos três (03) dias do mês de junho (06) do ano de dois mil e vinte e três (2023), compareceu o outorgante.",
     "três (03) dias do mês de junho (06) do ano de dois mil e vinte e três (2023)"),
    ("Assinado em Évora, aos vinte e um dias de abril de dois mil e vinte e cinco.",
     "vinte e um dias de abril de dois mil e vinte e cinco"),
    ("A segunda prestação vence em 15 Mar. 2025.", "15 Mar. 2025"),
    ("A inspeção foi feita em 3 out. 2024 no centro de Évora.", "3 out. 2024"),
    ("Recebemos a sua carta de 27 Nov. 2024, que agradecemos.", "27 Nov. 2024"),
]


@pytest.mark.parametrize("text, date", DATES)
def test_a_contracts_date_layout_is_one_private_date(anonymizer, text, date):
    assert (date, "DATE") in _masked(anonymizer, text)


# a registered letter's number (UPU S10: two letters, nine digits with a check digit, the country's letters)
IDENTIFIERS = [
    ("Carta registada com aviso de receção RR 1234 5678 5 PT", "RR 1234 5678 5 PT"),
    ("A notificação seguiu por correio registado RM908172638PT.", "RM908172638PT"),
    ("Objeto postal n.º RH 5550 1234 7 PT, entregue a 3 de março.", "RH 5550 1234 7 PT"),
]


@pytest.mark.parametrize("text, code", IDENTIFIERS)
def test_a_postal_item_is_one_identifier(anonymizer, text, code):
    assert (code, "NAMEID") in _masked(anonymizer, text)


# an apartment's or dwelling's unit word inside an address; an elided particle inside a company's name; a saint's
# invocation ("Senhora da Lapa") inside a body's name is no title
@pytest.mark.parametrize("text, span, category", [
    ("residente na Rua Padre Eustáquio, 900, apto 31, Belo Horizonte – MG, CEP 30720-100.",
     "Rua Padre Eustáquio, 900, apto 31, Belo Horizonte – MG, CEP 30720-100", "ADDRESS"),
    ("residente na Rua do Bolhão, n.º 75, habitação 4, 4000-110 Porto.",
     "Rua do Bolhão, n.º 75, habitação 4, 4000-110 Porto", "ADDRESS"),
    ("residente na Avenida da Boavista, 300, hab. 21, 4050-115 Porto.",
     "Avenida da Boavista, 300, hab. 21, 4050-115 Porto", "ADDRESS"),
    ("A Pão d'Avó Padaria, Lda. fornece a cantina.", "Pão d'Avó Padaria, Lda.", "ORGANIZATION"),
    ("O contrato com a Vinhos d'Alentejo, S.A. foi renovado.", "Vinhos d'Alentejo, S.A.", "ORGANIZATION"),
    ("A Estrela d'Alva Turismo, Lda. reservou os quartos.", "Estrela d'Alva Turismo, Lda.", "ORGANIZATION"),
    ("A doente teve alta do Hospital Particular Senhora da Guia.", "Hospital Particular Senhora da Guia", "ORGANIZATION"),
    ("O Colégio Senhora do Rosário contratou o professor.", "Colégio Senhora do Rosário", "ORGANIZATION"),
    ("A Associação Senhor dos Aflitos recebeu o donativo.", "Associação Senhor dos Aflitos", "ORGANIZATION"),
])
def test_units_particles_and_invocations_stay_inside_the_name(anonymizer, text, span, category):
    assert (span, category) in _masked(anonymizer, text)


# a letterhead's address line: the parts before a Portuguese postcode make one address when they are the whole line
@pytest.mark.parametrize("text", [
    "Palácio da Justiça, Campo Mártires da Pátria, 4050-366 Porto",
    "Edifício Atrium, Rua Castilho, 50, 1250-071 Lisboa",
    "Torre Norte, Campo Grande, n.º 30, 1700-093 Lisboa",
])
def test_a_letterheads_address_line_is_one_address(anonymizer, text):
    assert _addresses(anonymizer, text) == [text]


# digits in spaced thousands after a number sign are a register's number; an amount has its currency after it
@pytest.mark.parametrize("text, code", [
    ("Médica, cédula profissional da Ordem dos Médicos n.º 41 903", "41 903"),
    ("Advogado, inscrito na Ordem dos Advogados com o n.º 27 118-L.", "27 118-L"),
    ("Engenheira, membro da Ordem dos Engenheiros n.º 63 540, assina o termo.", "63 540"),
])
def test_spaced_thousands_after_a_number_sign_are_an_identifier(anonymizer, text, code):
    assert (code, "NAMEID") in _masked(anonymizer, text)


def test_an_amount_after_a_number_sign_stays_an_amount(anonymizer):
    assert not any("1 250" in t for t, _ in _masked(anonymizer, "O cheque n.º 1 250 € foi devolvido."))


# a plot's, a pavilion's or a warehouse's number before its estate, as prose writes it
@pytest.mark.parametrize("text, address", [
    ("com sede no Lote 12 da Zona Industrial de Rio Maior, 2040-000 Rio Maior.",
     "Lote 12 da Zona Industrial de Rio Maior, 2040-000 Rio Maior"),
    ("residente no lote 8 da Urbanização Quinta Nova, Ílhavo.", "lote 8 da Urbanização Quinta Nova, Ílhavo"),
    ("As máquinas estão no Pavilhão 3 do Parque Empresarial de Tondela.", "Pavilhão 3 do Parque Empresarial de Tondela"),
])
def test_a_plot_before_its_estate_is_one_address(anonymizer, text, address):
    assert address in _addresses(anonymizer, text)


# two names joined by "&" are a firm's (no kind of product, no person), not a field's initials
@pytest.mark.parametrize("text, name", [
    ("O contrato foi celebrado com a Cor & Traço para o design.", "Cor & Traço"),
    ("A Mendes & Mendes assegura a contabilidade.", "Mendes & Mendes"),
    ("A auditoria coube à Vaz & Pimentel, que emitiu parecer.", "Vaz & Pimentel"),
])
def test_names_joined_by_an_ampersand_are_a_firm(anonymizer, text, name):
    assert name in _orgs(anonymizer, [text])[0]


def test_a_fields_initials_joined_by_an_ampersand_stay_visible(anonymizer):
    assert _masked(anonymizer, "Os custos de I&D e de P & D são elegíveis.") == []


# partners' names listed with commas before "&" are one firm, with or without a legal form after them
@pytest.mark.parametrize("text, name", [
    ("O processo segue para a sociedade de advogados Teles, Amaral & Pinho.", "Teles, Amaral & Pinho"),
    ("A Borges Leal, Matos & Associados, Lda. emitiu a fatura.", "Borges Leal, Matos & Associados, Lda."),
    ("Representa a ré a firma Nunes, Cabral & Frade, com escritório em Braga.", "Nunes, Cabral & Frade"),
])
def test_partners_listed_before_an_ampersand_are_one_firm(anonymizer, text, name):
    assert name in _orgs(anonymizer, [text])[0]


# a company's name that opens with a word holding digits, up to its legal form
@pytest.mark.parametrize("text, name", [
    ("A 3 Pinheiros – Turismo Rural, Lda. reservou os quartos.", "3 Pinheiros – Turismo Rural, Lda."),
    ("O software foi licenciado pela Soft4You Sistemas, Lda.", "Soft4You Sistemas, Lda."),
    ("A 24Horas Vigilância, S.A. e a Byte2Byte, Lda. assinam.", "24Horas Vigilância, S.A."),
])
def test_a_company_name_with_digits_is_one_span(anonymizer, text, name):
    assert name in _orgs(anonymizer, [text])[0]
