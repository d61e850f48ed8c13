"""ORGANIZATION recall on contracts (issue 17): companies whose names no proper-noun chain holds (lower case, digits)
before their trade and legal form, bodies named after a titled person, small-claims courts, regional institutes.
Each class with three variants written for the test (no string of any evaluation set)."""

from __future__ import annotations

import pytest


def _orgs(anonymizer, text: str) -> list[str]:
    return [m.text for m in anonymizer.recognize_document([text])[0] if m.category == "ORGANIZATION"]


# a company's name in lower case or with digits, a dash, its trade and its legal form in any case: one company
TRADE_AND_FORM = [
    ("Entre sol e mar 7 – alojamento local, unipessoal, limitada, com sede em Faro, e o cliente.",
     "sol e mar 7 – alojamento local, unipessoal, limitada"),
    ("O serviço é prestado pela Rodoviária serrana 1999 – transportes públicos, Sociedade Anónima, desde 2020.",
     "Rodoviária serrana 1999 – transportes públicos, Sociedade Anónima"),
    ("O prédio é representado pela gerente tecnoclima 24 – climatização, lda, desde março.",
     "tecnoclima 24 – climatização, lda"),
    ("Fornecedor: ferro&aço do sul 99 – metalurgia, s.a., com sede no Porto.", "ferro&aço do sul 99 – metalurgia, s.a."),
    ("Titular: A TASCA DO 5 – RESTAURAÇÃO, LDA.", "A TASCA DO 5 – RESTAURAÇÃO, LDA."),
    ("Mediadora: PONTO 3 – seguros e créditos, sociedade unipessoal por quotas", "PONTO 3 – seguros e créditos, "
     "sociedade unipessoal por quotas"),
    ("A obra foi feita pela Telhados Nortenhos – coberturas e isolamentos, unipessoal lda.",
     "Telhados Nortenhos – coberturas e isolamentos, unipessoal lda."),
]

# without a dash: lower-case words after a noun that says it is a company, or digits after an article
PLAIN_FORM = [
    ("Vendeu a quota da sociedade Queijaria da serra verde, Lda., ao sobrinho.", "Queijaria da serra verde, Lda."),
    ("A empresa Padaria pão quente, Limitada fechou em maio.", "Padaria pão quente, Limitada"),
    ("Celebrou contrato com a ALFA-norte 3 Serviços Técnicos, Lda. e com o município.",
     "ALFA-norte 3 Serviços Técnicos, Lda."),
]

# a body named after a titled person: the head, the title and the name are one organisation
NAMED_AFTER_A_PERSON = [
    ("O aluno transitou para o Agrupamento de Escolas Padre Tomás Cunha no ano passado.",
     "Agrupamento de Escolas Padre Tomás Cunha"),
    ("A bolsa é paga pela Fundação Engenheiro Rui Matos desde 2019.", "Fundação Engenheiro Rui Matos"),
    ("A Escola Básica Dr. Joaquim Barros fechou para obras.", "Escola Básica Dr. Joaquim Barros"),
]

# small-claims courts (a first name inside, Paz), regional public institutes with the region after the form,
# a registered name's legal form written out after a head-noun name, social security's collection units
BODIES = [
    ("O processo correu no Julgado de Paz de Oeiras até à sentença.", "Julgado de Paz de Oeiras"),
    ("A mediação foi marcada pelo Julgado de Paz do Agrupamento de Concelhos de Mafra.",
     "Julgado de Paz do Agrupamento de Concelhos de Mafra"),
    ("Julgado de Paz de Santa Marta", "Julgado de Paz de Santa Marta"),
    ("O pedido foi deferido pelo Instituto da Vinha da Madeira, IP-RAM, em junho.", "Instituto da Vinha da Madeira, IP-RAM"),
    ("O Instituto de Saúde dos Açores, IP-RAA, informou o utente.", "Instituto de Saúde dos Açores, IP-RAA"),
    ("Recebeu o subsídio da Direção Regional de Pescas, I.P.-RAM, no ano passado.",
     "Direção Regional de Pescas, I.P.-RAM"),
    ("A apólice foi emitida pela Seguradora Atlântica do Sado, Sociedade Anónima, em 2021.",
     "Seguradora Atlântica do Sado, Sociedade Anónima"),
    ("A Cooperativa Agrícola do Vale Seco, crl, vendeu o vinho.", "Cooperativa Agrícola do Vale Seco, crl"),
    ("A dívida foi cobrada pela Secção de Processo Executivo de Braga em abril.", "Secção de Processo Executivo de Braga"),
    ("A consulta foi na Unidade de Saúde Familiar Flor de Sal, em Olhão.", "Unidade de Saúde Familiar Flor de Sal"),
    ("O Agrupamento de Centros de Saúde do Baixo Vouga emitiu a declaração.",
     "Agrupamento de Centros de Saúde do Baixo Vouga"),
    ("A vacina foi dada pela Unidade de Cuidados de Saúde Personalizados de Sines.",
     "Unidade de Cuidados de Saúde Personalizados de Sines"),
]

# a body's acronym and the ordinary capitalized words that touch it (its descriptor): one name
ACRONYM_AND_DESCRIPTOR = [
    ("O protocolo com a AFIB Diferença foi assinado em maio.", ["AFIB Diferença"]),
    ("Recebemos o apoio da ACIVE Portugal Global às exportações.", ["ACIVE Portugal Global"]),
    ("A quota da ASPUV Solidária é paga em janeiro.", ["ASPUV Solidária"]),
    ("O relatório da APAV chegou, assinado por Maria Silva.", ["APAV"]),  # a name after it is a person's
]

# insurers and banks named by a brand before their kind; the kind after "de" is no body's name
END_KINDS = [
    ("Exmos. Senhores da Lusimar Seguros, junto enviamos a apólice.", ["Lusimar Seguros"]),
    ("O Novo Banco informou o cliente.", ["Novo Banco"]),
    ("A Tejo Atlântico Seguros pagou a indemnização.", ["Tejo Atlântico Seguros"]),
    ("O Regime Jurídico da Mediação de Seguros foi alterado.", []),
    ("O Contrato de Seguros tem três anexos.", []),
]

# a head-noun company's legal form in lower case, without a comma
HEAD_AND_LOWER_FORM = [
    ("A carga seguiu pela Transportes Lima lda para Braga.", ["Transportes Lima lda"]),
    ("A Oficina Auto Sol unipessoal lda, NIPC 500 000 000, reparou o carro.", ["Oficina Auto Sol unipessoal lda"]),
    ("Comprou o pão na Padaria Flor do Vale limitada ontem.", ["Padaria Flor do Vale limitada"]),
    ("O Banco Alfa sabe que a conta está aberta.", ["Banco Alfa"]),
]

# a school's or shop's own name after its lower-case kind noun, with the article that opens it
KIND_AND_ARTICLE = [
    ("O menino anda no infantário O Pequeno Girassol desde 2022.", ["O Pequeno Girassol"]),
    ("Jantámos no restaurante O Cantinho das Sopas em Viseu.", ["O Cantinho das Sopas"]),
    ("O bolo veio da pastelaria A Doce Tentação, na esquina.", ["A Doce Tentação"]),
    ("O restaurante é caro e a pastelaria fecha cedo.", []),
]

# not companies: a dash and a comma without a legal form, a capitalized firm the chains read whole, a person
# after an institution's name with a comma or a verb between
NOT_TRADE_FORMS = [
    ("O Tribunal – secção cível, decidiu o recurso.", []),
    ("Revisor: MOTA, PINTO & ASSOCIADOS – SROC, LDA., com sede em Braga.", ["MOTA, PINTO & ASSOCIADOS – SROC, LDA."]),
    ("O Pedro vendeu a Sol Nascente, Lda. o lote.", ["Sol Nascente, Lda."]),
    ("O Conselho deu a palavra ao Dr. Rui Matos.", []),
    ("A Fundação homenageou o Padre Tomás Cunha.", []),
]


@pytest.mark.parametrize("text,org", TRADE_AND_FORM + PLAIN_FORM)
def test_a_company_named_in_lower_case_or_with_digits_before_its_form_is_one_company(anonymizer, text, org):
    assert _orgs(anonymizer, text) == [org]


@pytest.mark.parametrize("text,org", NAMED_AFTER_A_PERSON + BODIES)
def test_bodies_named_after_persons_courts_and_regional_institutes_are_whole(anonymizer, text, org):
    assert _orgs(anonymizer, text) == [org]


@pytest.mark.parametrize("text,orgs", NOT_TRADE_FORMS)
def test_no_company_without_a_legal_form_and_no_body_without_a_name(anonymizer, text, orgs):
    assert _orgs(anonymizer, text) == orgs


@pytest.mark.parametrize("text,orgs", ACRONYM_AND_DESCRIPTOR + END_KINDS + HEAD_AND_LOWER_FORM
                         + KIND_AND_ARTICLE)
def test_an_acronyms_descriptor_and_a_brand_before_its_kind_are_the_name(anonymizer, text, orgs):
    assert _orgs(anonymizer, text) == orgs
