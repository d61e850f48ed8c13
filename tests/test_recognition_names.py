"""Issue 17's name classes for unknown and lone capitalized words, each with three variants written for the test
(no string of any evaluation set): what the document's segments mask, segment by segment."""

from __future__ import annotations

import pytest


def _masked(anonymizer, texts: list[str]) -> list[list[tuple[str, str]]]:
    return [[(m.text, m.category) for m in ms] for ms in anonymizer.recognize_document(texts)]


# a lone unknown word read as a name inside a sentence is the same name where it opens another sentence
LONE_NAME_AT_SENTENCE_START = [
    ["O relatório cita Okonkwo como fonte.", "Okonkwo respondeu por escrito no dia seguinte."],
    ["A proposta foi aceite por Thorvaldsen sem reservas.", "Thorvaldsen assinou a ata."],
    ["O contrato foi revisto por Ndiaye em março.", "Ndiaye confirmou as cláusulas."],
]


@pytest.mark.parametrize("texts", LONE_NAME_AT_SENTENCE_START)
def test_a_lone_name_found_mid_sentence_is_masked_at_a_sentence_start(anonymizer, texts):
    name = texts[1].split()[0]
    assert _masked(anonymizer, texts) == [[(name, "PERSON")], [(name, "PERSON")]]


# a person's surname that is also a word is the person wherever the document writes it capitalized ...
SURNAME_THAT_IS_A_WORD = [
    (["O Presidente Tomás Marreta chegou ontem.", "Marreta falou aos jornalistas."], "Marreta"),
    (["O engenheiro Rui Pestana Lula visitou a obra.", "Lula elogiou os operários."], "Lula"),
    (["Assinou o Dr. Paulo Vieira Figo.", "A seguir, Figo leu a declaração."], "Figo"),
]


@pytest.mark.parametrize("texts,surname", SURNAME_THAT_IS_A_WORD)
def test_a_surname_that_is_also_a_word_follows_its_person(anonymizer, texts, surname):
    assert (surname, "PERSON") in _masked(anonymizer, texts)[1]


# ... unless the document also writes it in lower case, as the ordinary word it is there
SURNAME_THE_DOCUMENT_WRITES_AS_A_WORD = [
    ["O pescador apanhou uma lula.", "O engenheiro Rui Pestana Lula visitou a obra.", "Lula grelhada ao jantar."],
    ["Usou uma marreta pesada.", "O Presidente Tomás Marreta chegou ontem.", "Marreta nova custa pouco."],
    ["Comeu um figo maduro.", "Assinou o Dr. Paulo Vieira Figo.", "Figo seco é doce."],
]


@pytest.mark.parametrize("texts", SURNAME_THE_DOCUMENT_WRITES_AS_A_WORD)
def test_a_surname_the_document_writes_in_lower_case_does_not_spread(anonymizer, texts):
    assert _masked(anonymizer, texts)[2] == []


# after the preposition or adverb that opens a sentence, a lone unknown word is a name as it is mid-sentence
NAME_AFTER_AN_OPENER = [
    ("Segundo Ptolomeu, a Terra estava no centro.", "Ptolomeu"),
    ("Para Okonkwo, a decisão foi justa.", "Okonkwo"),
    ("Com Thorvaldsen ao leme, a empresa cresceu.", "Thorvaldsen"),
]


@pytest.mark.parametrize("text,name", NAME_AFTER_AN_OPENER)
def test_a_lone_name_after_an_opening_preposition_is_a_person(anonymizer, text, name):
    assert _masked(anonymizer, [text]) == [[(name, "PERSON")]]


# a capitalized word built with a derivational or participle ending is a noun or adjective, not a name
DERIVED_WORD_NOT_A_NAME = [
    "O parecer do Colegiado foi unânime.",
    "Conforme as Diretivas aplicáveis, o prazo é curto.",
    "O texto foi aprovado pela Conferência ontem.",
]


@pytest.mark.parametrize("text", DERIVED_WORD_NOT_A_NAME)
def test_a_derived_capitalized_word_is_no_person(anonymizer, text):
    assert [c for _, c in _masked(anonymizer, [text])[0]] in ([], ["ORGANIZATION"])


# a mixed-case word (an acronym's capitals inside it) names a body, a product or a unit, not a person
MIXED_CASE_WORD = [
    ("O pagamento foi feito em UFIRs corrigidas.", "UFIRs"),
    ("O jogo passou na SporTV ontem.", "SporTV"),
    ("A equipa migrou para o DocuNET em maio.", "DocuNET"),
]


@pytest.mark.parametrize("text,word", MIXED_CASE_WORD)
def test_a_mixed_case_word_is_an_organization(anonymizer, text, word):
    assert _masked(anonymizer, [text]) == [[(word, "ORGANIZATION")]]


def _spans(anonymizer, text: str, category: str) -> list[str]:
    return [m.text for m in anonymizer.recognize_document([text])[0] if m.category == category]


# an address in comma-separated parts that opens the segment (a letter's address line), its first part a long
# name after its head word, and the street words of Portuguese toponymy (praceta, ladeira, canada)
ADDRESS_LINE = [
    ("Quinta do Moinho Velho de Baixo, Estrada Nacional 2, 3600-120 Castro Daire",
     "Quinta do Moinho Velho de Baixo, Estrada Nacional 2, 3600-120 Castro Daire"),
    ("Praceta das Acácias, n.º 7, 2.º Esq., 2810-045 Almada", "Praceta das Acácias, n.º 7, 2.º Esq., 2810-045 Almada"),
    ("Morada: Canada do Outeiro, n.º 15, 9500-310 Ponta Delgada",
     "Canada do Outeiro, n.º 15, 9500-310 Ponta Delgada"),
    ("Loja na Ladeira da Sé, n.º 4, 6300-001 Guarda.", "Ladeira da Sé, n.º 4, 6300-001 Guarda"),
]

# a British postcode closes an address in parts: its town before it, the street, and the house's name after "em"
BRITISH_ADDRESS = [
    ("residente em 22 Maple Grove, Jesmond, Newcastle NE2 3AB, Reino Unido",
     "22 Maple Grove, Jesmond, Newcastle NE2 3AB"),
    ("com morada em Rose Cottage, Mill Lane, Great Bardfield, Braintree CM7 4PZ.",
     "Rose Cottage, Mill Lane, Great Bardfield, Braintree CM7 4PZ"),
    ("domiciliada em Flat 3, 41 Queen's Road, Clifton, Bristol BS8 1QE;", "Flat 3, 41 Queen's Road, Clifton, Bristol BS8 1QE"),
]


@pytest.mark.parametrize("text,address", ADDRESS_LINE + BRITISH_ADDRESS)
def test_an_address_in_parts_is_one_address_wherever_it_stands(anonymizer, text, address):
    assert _spans(anonymizer, text, "ADDRESS") == [address]


# a head of several words holding a particle (Direção de Finanças) still needs a name after it, counted in
# capitalized words; a preposition with its article inside a body's name (à, ao) does not end it
BODY_NAMES = [
    ("A Direção de Finanças de Setúbal indeferiu o pedido.", "Direção de Finanças de Setúbal"),
    ("Ontem a Junta de Freguesia de Alvalade aprovou as contas.", "Junta de Freguesia de Alvalade"),
    ("Foi notificada pela Direcção de Finanças do Porto.", "Direcção de Finanças do Porto"),
    ("Doou à Associação de Apoio ao Doente Renal de Viseu.", "Associação de Apoio ao Doente Renal de Viseu"),
    ("O Centro de Atendimento à Família Migrante abriu.", "Centro de Atendimento à Família Migrante"),
    ("A Liga de Apoio aos Bombeiros Voluntários reuniu.", "Liga de Apoio aos Bombeiros Voluntários"),
]

# the name right before a legal person's number (NIPC, pessoa coletiva) is a company's, however ordinary its
# words; so is the name after the roles a company has (gerentes da, sócio da)
COMPANY_BY_CONTEXT = [
    ("A Herdade do Monte Branco, NIPC 509 876 543, com sede em Beja.", "Herdade do Monte Branco"),
    ("a Quinta das Amoreiras Velhas tem o NIPC 514 222 333", "Quinta das Amoreiras Velhas"),
    ("Vendeu à Casa Agrícola Vale Fundo (pessoa coletiva n.º 501 234 567) o prédio.", "Casa Agrícola Vale Fundo"),
    ("na qualidade de gerentes da MÁRMORES DO ALENTEJO, assinaram.", "MÁRMORES DO ALENTEJO"),
    ("É sócio da Tintas Ribamar desde 2010.", "Tintas Ribamar"),
    ("Os acionistas da Pedra Alta Investimentos reuniram.", "Pedra Alta Investimentos"),
]


@pytest.mark.parametrize("text,name", BODY_NAMES + COMPANY_BY_CONTEXT)
def test_an_organization_by_its_head_or_its_context(anonymizer, text, name):
    assert name in _spans(anonymizer, text, "ORGANIZATION")


# a law firm's or cooperative's legal form goes on after a comma ("SP, RL"); a registry office's abbreviation
# is a body's head; "e" before a trigger word (NIPC) does not join it to the name
LEGAL_FORM_AND_REGISTRY = [
    ("Paiva Rebelo & Associados – Sociedade de Advogados, SP, RL, com sede", "Paiva Rebelo & Associados – Sociedade "
     "de Advogados, SP, RL"),
    ("Cooperativa Agrícola do Vale do Sorraia, CRL, representada", "Cooperativa Agrícola do Vale do Sorraia, CRL"),
    ("Matriculada na C.R.C. de Torres Vedras e NIPC 503 000 111", "C.R.C. de Torres Vedras"),
]


@pytest.mark.parametrize("text,name", LEGAL_FORM_AND_REGISTRY)
def test_legal_form_suffixes_and_registry_offices(anonymizer, text, name):
    assert name in _spans(anonymizer, text, "ORGANIZATION")


# a day before its month is a date's, not an act's number after "decisão de"; and the date of a decision
# written in lower case is that decision's (private), even after an act cited earlier in the sentence
DECISION_DATE = [
    ("nos termos do artigo 267.º TFUE, por decisão de 3 de abril de 2024, que deu entrada", "3 de abril de 2024"),
    ("ao abrigo do artigo 12.º, por sentença de 14 de março de 2023, transitada", "14 de março de 2023"),
    ("previsto na Lei n.º 7/2009, por despacho de 2 de junho de 2022, o pedido", "2 de junho de 2022"),
]


@pytest.mark.parametrize("text,date", DECISION_DATE)
def test_a_decisions_own_date_is_a_date(anonymizer, text, date):
    assert (date, "DATE") in _masked(anonymizer, [text])[0]


# digits in spaced groups after "número" are an identifier, not a law's number; a property's tax entry ("sob o
# artigo") names a number however short; a day before its month stays a date after a registration phrase
IDENTIFIER_CONTEXTS = [
    ("emitida pela Autoridade Tributária com o número 204 2021 0077 1290.", "204 2021 0077 1290", "NAMEID"),
    ("o recibo com o número 3311 0042 5567 foi anulado", "3311 0042 5567", "NAMEID"),
    ("inscrito na matriz predial urbana sob o artigo 87, da freguesia de Sé", "87", "NAMEID"),
    ("descrito na matriz sob o artigo 412 e registado", "412", "NAMEID"),
    ("notificado por carta registada de 12 de maio de 2024 e", "12 de maio de 2024", "DATE"),
    ("comunicou-o por carta registada de 3 de janeiro de 2022.", "3 de janeiro de 2022", "DATE"),
]


@pytest.mark.parametrize("text,span,category", IDENTIFIER_CONTEXTS)
def test_identifiers_and_dates_after_registration_words(anonymizer, text, span, category):
    assert (span, category) in _masked(anonymizer, [text])[0]


# a title, its particle and a place: the place is the title's complement, not a name (a title right before a
# place-like word still makes it a name: "Sr. Coimbra")
@pytest.mark.parametrize(("text", "names"), [
    ("O Presidente do Brasil chegou ontem.", []),
    ("A Ministra de Portugal e o Senador da Bahia falaram.", []),
    ("O Governador do Paraná reuniu-se com o Sr. Coimbra.", ["Coimbra"]),
])
def test_a_place_after_a_title_and_its_particle_is_no_person(anonymizer, text, names):
    assert _spans(anonymizer, text, "PERSON") == names
