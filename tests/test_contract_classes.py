"""More layouts of contracts and registry text as classes (addresses, identifiers, organisations, aliases, record
labels): each class with three variants written for this test, none copied from any corpus."""

from __future__ import annotations

import pytest

from tests.test_contract_layouts import _spans


def _document(anonymizer, texts: list[str], category: str) -> list[list[str]]:
    return [[m.text for m in ms if m.category == category] for ms in anonymizer.recognize_document(texts)]


ADDRESS_CLASSES = {
    # a Brazilian town and its state after a dash, then the CEP with or without its word
    "town – state, CEP": [
        ("reside na Rua Dona Laura, 88, apto. 12, Rio Branco, Porto Alegre – RS, CEP 90430-090, Brasil.",
         "Rua Dona Laura, 88, apto. 12, Rio Branco, Porto Alegre – RS, CEP 90430-090"),
        ("com sede na Avenida Rio Negro, 410, Centro, Manaus – AM, 69005-070.",
         "Avenida Rio Negro, 410, Centro, Manaus – AM, 69005-070"),
        ("residente à Rua Tabapuã, 77, sala 3, Itaim Bibi, São Paulo, SP, CEP 04533-010.",
         "Rua Tabapuã, 77, sala 3, Itaim Bibi, São Paulo, SP, CEP 04533-010"),
    ],
    # a floor written with a dotted number or a letter suffix and a floor word (German, French)
    "dotted floor": [
        ("residente na Lindenweg 12, Vorderhaus, 2. OG, 04109 Leipzig, Alemanha.",
         "Lindenweg 12, Vorderhaus, 2. OG, 04109 Leipzig"),
        ("com sede na Rosenstraße 5, 1. Stock, 80331 München.", "Rosenstraße 5, 1. Stock, 80331 München"),
        ("domiciliado em 9 rue des Lilas, 3e étage, 69003 Lyon, França.", "9 rue des Lilas, 3e étage, 69003 Lyon"),
    ],
    # a fused street with a lettered house number; the French repeated number; the house number first in capitals
    "house number layouts": [
        ("com sede em Molenweg 14-C, 2312 AB Leiden, Países Baixos.", "Molenweg 14-C, 2312 AB Leiden"),
        ("residente em 6 ter, avenue des Pins, 13008 Marseille, França.", "6 ter, avenue des Pins, 13008 Marseille"),
        ("com escritório em 3 Place Bellecour, 69002 Lyon.", "3 Place Bellecour, 69002 Lyon"),
    ],
    # a range of house numbers; a house number with its sign as a part before a postcode
    "number ranges and signs": [
        ("sito na Rua das Pereiras, n.os 4 a 8, 3000-100 Coimbra.", "Rua das Pereiras, n.os 4 a 8, 3000-100 Coimbra"),
        ("com sede na Avenida do Mar, n.os 21 e 23, Peniche.", "Avenida do Mar, n.os 21 e 23, Peniche"),
        ("com sede no Parque Tecnológico, Bloco Sul, n.º 12, 4450-001 Matosinhos.",
         "Parque Tecnológico, Bloco Sul, n.º 12, 4450-001 Matosinhos"),
    ],
    # smallest part first with "No." or a numbered lane; acronym-opened and Roman-numbered parts
    "unit and lane parts": [
        ("com fábrica em Plot No. 44, MIDC Area, Phase III, Chakan, Pune 410501, Índia.",
         "Plot No. 44, MIDC Area, Phase III, Chakan, Pune 410501"),
        ("residente em Room 808, No. 17 Lane 230, Hongqiao Road, Shanghai 200030, China.",
         "Room 808, No. 17 Lane 230, Hongqiao Road, Shanghai 200030"),
        ("com sede em Unit No. 6, Block C, Bhiwandi 421302, Índia.", "Unit No. 6, Block C, Bhiwandi 421302"),
    ],
    # Irish, Canadian, Swedish and Australian postcode layouts
    "postcode layouts": [
        ("com sede em 4 Harcourt Road, Dublin 2, D02 W123, Irlanda.", "4 Harcourt Road, Dublin 2, D02 W123"),
        ("com sede em 80 Bay Street, Toronto, ON M5J 2N8, Canadá.", "80 Bay Street, Toronto, ON M5J 2N8"),
        ("residente em Storgatan 4, 411 38 Göteborg, Suécia.", "Storgatan 4, 411 38 Göteborg"),
    ],
    # administrative areas after the number; a district and its town before the country; Spanish sides
    "areas, districts, sides": [
        ("sito na Rua da Fonte, n.º 2, freguesia de Arcos, concelho de Anadia.",
         "Rua da Fonte, n.º 2, freguesia de Arcos, concelho de Anadia"),
        ("com sede na Rua Kwame Nkrumah, n.º 31, Maianga, Luanda, Angola.", "Rua Kwame Nkrumah, n.º 31, Maianga, Luanda"),
        ("residente em Calle de Alcántara 12, 2º dcho., 28006 Madrid.", "Calle de Alcántara 12, 2º dcho., 28006 Madrid"),
    ],
}


@pytest.mark.parametrize("text,address", [c for cases in ADDRESS_CLASSES.values() for c in cases])
def test_an_address_layout_is_one_span(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]


# phones in a national layout (a trunk "0" or an area code in brackets), valid where phonenumbers says so
NATIONAL_PHONES = [
    ("Contacto: Olivia Grant, 0117 496 0123.", "0117 496 0123"),
    ("Pode ligar para o escritório de Lyon, 04 78 12 34 56, ou escrever.", "04 78 12 34 56"),
    ("Atendimento: (21) 2345-6789, de segunda a sexta.", "(21) 2345-6789"),
]


@pytest.mark.parametrize("text,phone", NATIONAL_PHONES)
def test_a_phone_in_a_national_layout_is_an_identifier(anonymizer, text, phone):
    assert phone in _spans(anonymizer, text, "NAMEID")


# a holder's web domain after its noun; a long plain number after the bare noun "número"
NAMED_CODES = [
    ("A marca e o domínio padariasol.pt pertencem à vendedora.", "padariasol.pt"),
    ("the shop's website is quintadofundo.co.uk since 2020.", "quintadofundo.co.uk"),
    ("sociedade registada em Gales com o número 07712345, com sede em Cardiff.", "07712345"),
]


@pytest.mark.parametrize("text,code", NAMED_CODES)
def test_a_named_code_is_an_identifier(anonymizer, text, code):
    assert code in _spans(anonymizer, text, "NAMEID")


# "número" before a law's subdivision stays public; a phone-like amount or year is no phone
NOT_IDENTIFIERS = [
    "nos termos do número 2 do artigo 14.º do Código Civil.",
    "O preço de 1 250 000 euros foi pago em 2024.",
    "Ver o sítio oficial da Comissão para mais informações.",
]


@pytest.mark.parametrize("text", NOT_IDENTIFIERS)
def test_no_identifier_without_its_layout(anonymizer, text):
    assert _spans(anonymizer, text, "NAMEID") == []


ORGANIZATION_CLASSES = [
    # notarial and registry offices, numbered or named by their town
    ("lavrada no 4.º Cartório Notarial do Porto em março.", "4.º Cartório Notarial do Porto"),
    ("reconhecida no 12.º Tabelionato de Notas de Recife, no mesmo dia.", "12.º Tabelionato de Notas de Recife"),
    ("arquivada no Cartório Notarial de Tomar, livro 3.", "Cartório Notarial de Tomar"),
    # a body's name that lists its competences
    ("recorreu ao Centro de Estudos, Formação e Apoio de Leiria, que arquivou.",
     "Centro de Estudos, Formação e Apoio de Leiria"),
    ("a Associação de Pais, Alunos e Amigos da Escola de Fafe reuniu.", "Associação de Pais, Alunos e Amigos da Escola de Fafe"),
    ("o Instituto de Estudos, Pesquisa e Ensino de Coimbra assinou.", "Instituto de Estudos, Pesquisa e Ensino de Coimbra"),
    # a foreign company's registered branch; an English "of" name before its legal form
    ("a Brightwater Insurance Limited – Sucursal em Portugal pagou.", "Brightwater Insurance Limited – Sucursal em Portugal"),
    ("o saldo da Bank of Lisbon Trust Limited foi penhorado.", "Bank of Lisbon Trust Limited"),
    ("a Harbour Bank of Malta Limited, Branch in Lisbon, confirmou.", "Harbour Bank of Malta Limited, Branch in Lisbon"),
    # a noun that says what kind of company the name after it is
    ("A seguradora Protegemar recusou o sinistro.", "Protegemar"),
    ("contratou a transportadora Rodovelox para a entrega.", "Rodovelox"),
    ("A empresa Cortiçalva forneceu as rolhas.", "Cortiçalva"),
    # family-firm tails and capitals
    ("Emitente: Serralharia Duarte & Filhos", "Serralharia Duarte & Filhos"),
    ("a Tanoaria Lopes & Irmãos entregou as pipas.", "Tanoaria Lopes & Irmãos"),
    ("A CONFEITARIA DOCE ALVORADA, UNIPESSOAL LDA pagou.", "CONFEITARIA DOCE ALVORADA, UNIPESSOAL LDA"),
]


@pytest.mark.parametrize("text,org", ORGANIZATION_CLASSES)
def test_an_organisation_class_is_one_span(anonymizer, text, org):
    assert org in _spans(anonymizer, text, "ORGANIZATION")


def test_a_notarial_office_named_by_its_head_alone_is_a_common_noun(anonymizer):
    for text in ("no Cartório Notarial sito na Rua Nova, n.º 3, Tomar, perante mim,",
                 "o Tabelionato recebeu o pedido.", "no Cartório, a notária leu a escritura."):
        assert _spans(anonymizer, text, "ORGANIZATION") == []


# an alias defined without brackets after a comma, or later in the clause as the name's own words: masked later
DEFINED_ALIASES = [
    (["PRIMEIRA: Vidromar – Vidros Técnicos, S.A., com sede em Leiria, doravante «Vidromar».",
      "A Vidromar entrega as peças."], "Vidromar"),
    (["SEGUNDA: Azeites & Olivais do Tejo, Lda., adiante designada por «Olivais do Tejo».",
      "O preço é pago pela Olivais do Tejo."], "Olivais do Tejo"),
    (["Cláusula 1.ª – Ferragens Pombal, Lda., NIPC 509 123 456, doravante «Ferragens Pombal», vende.",
      "A Ferragens Pombal garante as peças."], "Ferragens Pombal"),
]


@pytest.mark.parametrize("texts,alias", DEFINED_ALIASES)
def test_a_defined_alias_is_masked_where_the_document_uses_it(anonymizer, texts, alias):
    later = _document(anonymizer, texts, "ORGANIZATION")[1]
    assert alias in later


# a court record's header labels after a name end it; a label that completes a head noun stays
RECORD_LABELS = [
    ("Tribunal Regional do Trabalho Documento assinado eletronicamente", "ORGANIZATION", "Tribunal Regional do Trabalho"),
    ("RELATOR : MINISTRO LUÍS ALVES REQTE .( S ) : JOSÉ DIAS", "PERSON", "LUÍS ALVES"),
    ("a Bento & Associados – Sociedade de Advogados, SP, RL representa.", "ORGANIZATION",
     "Bento & Associados – Sociedade de Advogados, SP, RL"),
]


@pytest.mark.parametrize("text,category,name", RECORD_LABELS)
def test_a_record_label_ends_a_name(anonymizer, text, category, name):
    assert name in _spans(anonymizer, text, category)


PROSE_ADDRESS_CLASSES = {
    # house numbers and floors in words, as deeds write them
    "numbers in words": [
        ("residente na Rua do Pombal, número trinta e um, segundo andar direito, em Ovar.",
         "Rua do Pombal, número trinta e um, segundo andar direito"),
        ("residente na Travessa da Fonte, número nove, rés-do-chão, Tomar.", "Travessa da Fonte, número nove, rés-do-chão, Tomar"),
        ("sito na Urbanização das Acácias, lote doze, Loulé.", "Urbanização das Acácias, lote doze, Loulé"),
    ],
    # the house number before its street
    "number before the street": [
        ("residente no n.º 42 da Rua de Cedofeita, no Porto.", "n.º 42 da Rua de Cedofeita"),
        ("o prédio com o n.º 9 da Travessa das Flores, 4050-000 Porto, foi vendido.",
         "n.º 9 da Travessa das Flores, 4050-000 Porto"),
        ("a loja do número 120 da Avenida da Boavista e o armazém.", "número 120 da Avenida da Boavista"),
    ],
    # a street with no number announced by a residence or seat phrase; street words in lower case; estates
    "announced, lower case, estates": [
        ("residente na Rua das Gaivotas, Peniche, portador do cartão.", "Rua das Gaivotas, Peniche"),
        ("domiciliado na avenida Sidónio Pais, n.º 8, 1050-214 Lisboa.", "avenida Sidónio Pais, n.º 8, 1050-214 Lisboa"),
        ("com sede na Herdade do Pinheirinho, 7570-000 Grândola.", "Herdade do Pinheirinho, 7570-000 Grândola"),
    ],
    # a title's initial inside a street's name; a named district with a particle before its town
    "initials and districts": [
        ("residente na Rua D. Afonso Henriques, n.º 3, Guimarães.", "Rua D. Afonso Henriques, n.º 3, Guimarães"),
        ("residente na Praça D. Luís I, n.º 30, 1200-000 Lisboa.", "Praça D. Luís I, n.º 30, 1200-000 Lisboa"),
        ("com sede na Rua C, n.º 4, Bairro da Encarnação, Lisboa.", "Rua C, n.º 4, Bairro da Encarnação, Lisboa"),
    ],
}


@pytest.mark.parametrize("text,address", [c for cases in PROSE_ADDRESS_CLASSES.values() for c in cases])
def test_a_prose_address_is_one_span(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]


# a street word with no name after it, or a number that is a distance, is no address
NOT_ADDRESSES = [
    "percorreu a rua de 2 km até à avenida.",
    "residente na mesma rua há muitos anos.",
    "nos termos do n.º 2 do artigo 5.º da Lei n.º 4/2020.",
]


@pytest.mark.parametrize("text", NOT_ADDRESSES)
def test_no_address_without_a_named_street(anonymizer, text):
    assert _spans(anonymizer, text, "ADDRESS") == []


MORE_ORGANIZATIONS = [
    # a company's name in quotes before its legal form
    ("a sociedade «Sabores da Ria», Lda., com sede em Aveiro.", "«Sabores da Ria», Lda."),
    ("a firma \"Ferro & Aço do Lis\", S.A. faturou.", "\"Ferro & Aço do Lis\", S.A."),
    ("contratou a «Jardins Suspensos», Unipessoal, Lda. para a obra.", "«Jardins Suspensos», Unipessoal, Lda."),
    # a building's owners as one legal person
    ("o Condomínio do Edifício Miramar deliberou.", "Condomínio do Edifício Miramar"),
    ("notificou o Condomínio da Torre Norte.", "Condomínio da Torre Norte"),
    ("a administração do Condomínio Jardins do Lago pagou.", "Condomínio Jardins do Lago"),
]


@pytest.mark.parametrize("text,org", MORE_ORGANIZATIONS)
def test_more_organisation_classes(anonymizer, text, org):
    assert org in _spans(anonymizer, text, "ORGANIZATION")


# one capitalized word set off by a dash before a company's descriptive part names the company later
DASHED_SHORT_NAMES = [
    (["A Protecta – Companhia de Seguros, S.A. recusou.", "A Protecta pagou depois."], "Protecta"),
    (["a Solidez – Construções Metálicas, Lda. e o dono da obra.", "a Solidez entregou."], "Solidez"),
    (["Vendedora: Harmonia – Instrumentos Musicais, Lda.", "A Harmonia garante o piano."], "Harmonia"),
]


@pytest.mark.parametrize("texts,short", DASHED_SHORT_NAMES)
def test_a_dashed_short_name_is_the_company_later(anonymizer, texts, short):
    assert short in _document(anonymizer, texts, "ORGANIZATION")[1]


# a Portuguese court case number is a proceeding's identifier whatever noun governs it
CASE_NUMBERS = [
    ("No recurso n.º 3310/21.4T8BRG.G1, a apelante alegou.", "3310/21.4T8BRG.G1"),
    ("Apenso ao inquérito 98/23.2GCSTR, o auto foi junto.", "98/23.2GCSTR"),
    ("acórdão proferido no processo 0412/19.7BELSB-A.", "0412/19.7BELSB-A"),
]


@pytest.mark.parametrize("text,code", CASE_NUMBERS)
def test_a_court_case_number_is_an_identifier(anonymizer, text, code):
    assert code in _spans(anonymizer, text, "NAMEID")


# foreign car plates after the word for a plate, and a Spanish registry entry after its volume word
FOREIGN_REGISTRATIONS = [
    ("o ligeiro de matrícula espanhola 7710 HJK seguia à frente.", "7710 HJK"),
    ("o veículo de matrícula francesa GH-418-TR estacionou.", "GH-418-TR"),
    ("inscrita no Registro Mercantil de Sevilla, tomo 4.102, folio 77, hoja SE-60311.", "4.102, folio 77, hoja SE-60311"),
]


@pytest.mark.parametrize("text,code", FOREIGN_REGISTRATIONS)
def test_a_foreign_registration_is_an_identifier(anonymizer, text, code):
    assert code in _spans(anonymizer, text, "NAMEID")
