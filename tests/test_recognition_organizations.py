"""ORGANIZATION recall on general text (issue 17): each rule a linguistic class, with three variants written for
the test (no string of any evaluation set): the organisations found, whole, or what stays visible."""

from __future__ import annotations

import pytest


def _spans(anonymizer, text: str, category: str = "ORGANIZATION") -> list[str]:
    return [m.text for m in anonymizer.recognize_document([text])[0] if m.category == category]


# a body's acronym in running text that no dictionary knows is masked, though wordfreq counts it as a frequent word
# (acronyms are frequent in web text)
ACRONYMS_OF_BODIES = [
    ("Segundo a OMS, a epidemia abrandou durante o verão passado.", "OMS"),
    ("O programa foi transmitido pela BBC e repetido no domingo.", "BBC"),
    ("A proposta foi apresentada pela NASA aos parceiros europeus na semana passada.", "NASA"),
]

# a frequent word in capitals, a tax, a country's abbreviation: no body's acronym
CAPITALS_NOT_BODIES = [
    "O BANCO pode debitar a CONTA descrita no documento que assinou.",
    "O valor do IVA subiu e a taxa do IRS desceu no ano passado.",
    "Os EUA e a URSS assinaram o tratado depois de longas negociações.",
]


@pytest.mark.parametrize("text,acronym", ACRONYMS_OF_BODIES)
def test_a_bodys_acronym_no_dictionary_knows_is_an_organisation(anonymizer, text, acronym):
    assert _spans(anonymizer, text) == [acronym]


@pytest.mark.parametrize("text", CAPITALS_NOT_BODIES)
def test_capitals_that_are_words_taxes_or_countries_stay(anonymizer, text):
    assert _spans(anonymizer, text) == []


# head nouns of bodies joined for a cause, a faith or an art, and of the press and broadcasters
INSTITUTION_HEADS = [
    ("A Organização Ibérica dos Produtores de Cortiça reuniu-se em Évora.", "Organização Ibérica dos Produtores de Cortiça"),
    ("O padre da Igreja Evangélica do Vale Fundo celebrou a missa.", "Igreja Evangélica do Vale Fundo"),
    ("O Movimento Cívico Pró-Ribeira entregou a petição.", "Movimento Cívico Pró-Ribeira"),
    ("A Frente Popular do Sul ganhou as eleições.", "Frente Popular do Sul"),
    ("Estreou no Teatro Experimental da Barrosa a nova peça.", "Teatro Experimental da Barrosa"),
    ("A Orquestra Filarmónica de Alvaiázere tocou no sábado.", "Orquestra Filarmónica de Alvaiázere"),
    ("A notícia saiu no Jornal da Gandarela de quinta-feira.", "Jornal da Gandarela"),
    ("Ele escreve para a Revista Horizonte Verde desde 2001.", "Revista Horizonte Verde"),
    ("A entrevista passou na Rádio Clube de Almeirim.", "Rádio Clube de Almeirim"),
    ("A Divisão de Obras Particulares indeferiu o pedido.", "Divisão de Obras Particulares"),
    ("A Direção Central de Combate ao Contrabando abriu um inquérito.", "Direção Central de Combate ao Contrabando"),
    ("A Coordenadoria de Apoio ao Idoso respondeu à queixa.", "Coordenadoria de Apoio ao Idoso"),
]


@pytest.mark.parametrize("text,org", INSTITUTION_HEADS)
def test_institution_press_and_unit_heads_name_an_organisation(anonymizer, text, org):
    assert _spans(anonymizer, text) == [org]


# the official gazettes are a public text's venue, not a press body
OFFICIAL_GAZETTES = [
    "O presente regulamento é publicado no Jornal Oficial da União Europeia.",
    "O aviso foi publicado no Jornal Oficial em março.",
    "Ver o anúncio no JORNAL OFICIAL DAS COMUNIDADES EUROPEIAS, série C.",
]


@pytest.mark.parametrize("text", OFFICIAL_GAZETTES)
def test_official_gazettes_stay_public(anonymizer, text):
    assert _spans(anonymizer, text) == []


# a company's organ (head and ordinary words) is no entity; the same head with a place after it is that place's body
ORGANS_AND_BODIES_OF_PLACES = [
    ("O Conselho de Administração reuniu-se ontem.", []),
    ("A Assembleia Geral aprovou as contas do exercício.", []),
    ("O Conselho de Ourém aprovou o orçamento.", ["Conselho de Ourém"]),
    ("A Comissão de Lamego deu parecer favorável.", ["Comissão de Lamego"]),
    ("A Assembleia de Tavira votou a moção.", ["Assembleia de Tavira"]),
]


@pytest.mark.parametrize("text,orgs", ORGANS_AND_BODIES_OF_PLACES)
def test_an_organ_stays_and_a_places_body_is_masked(anonymizer, text, orgs):
    assert _spans(anonymizer, text) == orgs
