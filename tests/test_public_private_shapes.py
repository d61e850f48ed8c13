"""The public-text rules of legislation (designations, products, types, instruments' issuers, agreements' years,
title-case headings) do not hide a private party written in the same shape in a contract, a deed, a letter or a
judgment. Every example is written for this test (none is taken from an evaluation set); three variants a class."""

from __future__ import annotations

import pytest


def _masked(anonymizer, text: str) -> list[tuple[str, str]]:
    return [(m.text, m.category) for m in anonymizer.recognize_document([text])[0]]


NAME = ("PERSON", "ORGANIZATION")

PRIVATE = [
    # a word of the language in capitals before a number is a company's name, no standard's designation
    ("A empresa VIAÇÃO 1001 foi condenada.", "VIAÇÃO", NAME),
    ("O gerente da LOJA 2000 assinou a carta.", "LOJA", NAME),
    ("A sócia da MÓVEIS 2010 assinou o contrato.", "MÓVEIS", NAME),
    # a name in capitals after a product noun that is also a rank ("Cabo") is a person, no system's acronym
    ("Declarou o Cabo JOAQUIM MOREIRA que estava de serviço.", "JOAQUIM MOREIRA", NAME),
    ("O equipamento foi vendido pelo Cabo RUI MANUEL SOUSA ao arguido.", "RUI MANUEL SOUSA", NAME),
    ("O Sargento e o Cabo ANTÓNIO PIRES estiveram presentes.", "ANTÓNIO PIRES", NAME),
    # a bracketed acronym after a product noun and a surname is the company's acronym
    ("A empresa Sistemas Marques (SMQ) forneceu o software.", "SMQ", NAME),
    ("O software foi instalado pela Equipamentos Pereira (EQP), com sede em Viseu.", "EQP", NAME),
    ("A assistência é prestada pela Aparelhos Cunha (APC) nos termos do contrato.", "APC", NAME),
    # a product's head noun and a surname is a company or a person, no kind of product
    ("A Sistemas Martins forneceu o servidor ao Município.", "Sistemas Martins", NAME),
    ("O Equipamento Teixeira foi vendido ao autor em 2019.", "Teixeira", NAME),
    ("O Sistema Integrado de Vendas Martins foi licenciado à ré.", "Martins", NAME),
    # a "Sistema" qualified by an administration's scope is a public programme, an organisation
    ("O Sistema Único de Saúde pagou ao hospital.", "Sistema Único de Saúde", ("ORGANIZATION",)),
    ("O Sistema Nacional de Emprego colocou o trabalhador.", "Sistema Nacional de Emprego", ("ORGANIZATION",)),
    ("O Sistema Estadual de Trânsito notificou o condutor.", "Sistema Estadual de Trânsito", ("ORGANIZATION",)),
    # a lone surname after a type noun is a name, no model's designation
    ("O equipamento, do modelo Ferreira, foi entregue ao cliente.", "Ferreira", NAME),
    ("As peças da série Figueiredo foram devolvidas pelo comprador.", "Figueiredo", NAME),
    ("O fornecedor entregou o aparelho do tipo Gonçalves ao réu.", "Gonçalves", NAME),
    # a meeting's title (noun and adjectives, no complement) names no issuer: the party's acronym after it
    ("A Convenção Nacional Ordinária do PSDB aprovou as contas.", "PSDB", NAME),
    ("A Assembleia e a Convenção Nacional Extraordinária do PTB foram convocadas.", "PTB", NAME),
    ("Nos termos da Convenção Estadual do PDT, o diretório foi dissolvido.", "PDT", NAME),
    # three letters and a year, or an acronym after a dated document's noun: a body's or a company's acronym
    ("O recurso do STM de 1999 foi negado.", "STM", NAME),
    ("O contrato com a CTT de 2010 foi rescindido.", "CTT", NAME),
    ("As contas da XPTOL de 2015 foram aprovadas.", "XPTOL", NAME),
    # a title-case heading of words opens and ends its segment; the same words in a sentence name a company
    ("A renda foi paga pela Madeiras Serradas Rocha ao senhorio.", "Rocha", NAME),
    ("O contrato com a Cortiças Prensadas Oliveira foi rescindido.", "Oliveira", NAME),
    ("O autor trabalhou na Confeções Têxteis Pinto durante anos.", "Pinto", NAME),
    # a bracketed acronym after a company's noun phrase, a lower-case agreement's acronym, a surname before a
    # country
    ("O contrato foi celebrado com a empresa de construção (CONSTRIMAR) em 2019.", "CONSTRIMAR", NAME),
    ("A sociedade por quotas (TRANSLUMA) pagou a renda.", "TRANSLUMA", NAME),
    ("O réu trabalhava na loja de móveis (MOVELARTE) do irmão.", "MOVELARTE", NAME),
    ("O acordo SONIX e CGX foi assinado pelos gerentes.", "SONIX", NAME),
    ("O protocolo BRQ foi denunciado pela autora.", "BRQ", NAME),
    ("O tratado TMX com a ré foi rescindido.", "TMX", NAME),
    ("O fornecedor, Ferraz, Portugal, entregou as peças.", "Ferraz", NAME),
    ("Comprador: Teixeira, Brasil, com sede em São Paulo.", "Teixeira", NAME),
    ("A encomenda foi enviada por Gonçalves, Portugal, ao cliente.", "Gonçalves", NAME),
    # an acronym after a noun of trade goods is the maker's; a product noun's owner after da/do, a body's head or a
    # name opening the words after it
    ("Os produtos SONAX foram entregues ao cliente em março.", "SONAX", NAME),
    ("O material CTX foi devolvido pela ré.", "CTX", NAME),
    ("Os componentes JMX chegaram danificados.", "JMX", NAME),
    ("O sistema do Banco Espírito Santo falhou.", "Banco Espírito Santo", NAME),
    ("O produto SIGMA da Construções Almeida foi entregue.", "Construções Almeida", NAME),
    ("Os produtos Ferreira Alimentar foram devolvidos.", "Ferreira", NAME),
    # an instrument's title naming a party; a segment that opens with a company's words and a surname and goes on
    # as a sentence
    ("As Regras de Utilização da Quinta Ferreira aplicam-se aos hóspedes.", "Ferreira", NAME),
    ("As Normas de Segurança da Casa Teixeira foram violadas pelo réu.", "Teixeira", NAME),
    ("As Normas de Conduta da Herdade Gonçalves foram lidas.", "Gonçalves", NAME),
    ("Madeiras Serradas Rocha obriga-se a pagar a renda.", "Rocha", NAME),
    ("Cortiças Prensadas Oliveira declara que recebeu o valor.", "Oliveira", NAME),
    ("Mármores Polidos Rocha obriga-se a entregar as placas.", "Rocha", NAME),
    # a committee whose complement after "da/do" is no common noun belongs to a company, no subject names it
    ("O Comité de Empresa da Autoeuropa reuniu ontem.", "Autoeuropa", NAME),
    ("O Grupo de Trabalho da Pestaninha reuniu.", "Pestaninha", NAME),
    ("O Subcomité de Vendas da Lusomarte aprovou o plano.", "Lusomarte", NAME),
]


@pytest.mark.parametrize("text, span, categories", PRIVATE)
def test_a_private_party_in_the_shape_of_public_text_stays_masked(anonymizer, text, span, categories):
    masked = _masked(anonymizer, text)
    assert any(span in t and c in categories for t, c in masked), masked


# an e-mail box named by a person under a public domain is the person's address (an office's box stays public)
@pytest.mark.parametrize("text, address", [
    ("Contacto do técnico: rui.sousa@gov.pt", "rui.sousa@gov.pt"),
    ("A inspetora escreveu de joana_reis@mar.gouv.fr ao réu.", "joana_reis@mar.gouv.fr"),
    ("Resposta enviada por pedro.alves@ec.europa.eu ao advogado.", "pedro.alves@ec.europa.eu"),
])
def test_a_persons_mailbox_under_a_public_domain_stays_an_identifier(anonymizer, text, address):
    assert (address, "NAMEID") in _masked(anonymizer, text)


# the kind of product after a bare "de" stays public, a first name among its words ("Socorro") included
@pytest.mark.parametrize("text, public", [
    ("Equipamento de Socorro Rápido", "Socorro"),
    ("Equipamento Sonar Doppler", "Doppler"),
    ("Recetor NAVDAT instalado a bordo.", "NAVDAT"),
])
def test_a_kind_of_product_stays_public(anonymizer, text, public):
    assert not any(public in t for t, _ in _masked(anonymizer, text))



# letters and a number after a number (a car plate) or after a building's unit noun are no standard's designation
@pytest.mark.parametrize("text, span", [
    ("O veículo de matrícula 12 AB 34 pertence ao réu.", "AB 34"),
    ("O arguido reside no Bloco CF 23, porta 4.", "CF 23"),
    ("A fração AC 12 pertence à ré.", "AC 12"),
])
def test_a_plate_or_a_units_letters_are_not_claimed_as_public(anonymizer, text, span):
    from paranon.anonymize.corpus import public_mentions

    assert not any(span in m.text for m in public_mentions(anonymizer, text))


# a private body's own rules: a code or regulation titled with a name no dictionary knows is no law's or instrument's
# title (a code of law is titled with words and places), so it shields nothing
@pytest.mark.parametrize("text, name", [
    ("Aplica-se o Código de Conduta da Tecnivalor aos trabalhadores.", "Tecnivalor"),
    ("O Regulamento Interno da Bricomarte obriga os sócios.", "Bricomarte"),
    ("O Regimento de Funcionamento da Quinta Valdemoura foi aprovado.", "Valdemoura"),
])
def test_a_private_bodys_own_code_is_not_claimed_as_public(anonymizer, text, name):
    from paranon.anonymize.corpus import public_mentions

    assert not any(name in m.text for m in public_mentions(anonymizer, text))


@pytest.mark.parametrize("text, public", [
    ("Nos termos do Código de Processo Civil, o prazo é de dez dias.", "Código de Processo Civil"),
    ("A Lei Orgânica do Distrito Federal prevê o recurso.", "Lei Orgânica do Distrito Federal"),
    ("O Código de Conduta dos Árbitros aplica-se.", "Código de Conduta dos Árbitros"),
])
def test_a_code_of_law_titled_with_words_and_places_stays_public(anonymizer, text, public):
    from paranon.anonymize.corpus import public_mentions

    assert any(public in m.text for m in public_mentions(anonymizer, text))
