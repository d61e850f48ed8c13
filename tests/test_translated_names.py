"""An organisation's English name that the aligner did not carry whole: taken on past a preposition inside it,
named by its long form before its bracketed acronym, and widened over a source word the steps left beside it."""

from __future__ import annotations

import pytest
from paranon.align.names import own_words
from paranon.align.transfer import Transferrer
from paranon.corpora.model import Mention, SegmentPair

from paranon.inmemory import process_in_memory
from paranon.text import fold, tokenize


def _transfer(original: str, anon: str, tgt: str, aligned: str | None):
    """One organisation's transfer: its placeholder in ``anon`` linked to the target words of ``aligned`` (to
    none when None)."""
    s = anon.index("<NAME1")
    e = anon.index(">", s) + 1
    placeholder = Mention(s, e, "ORGANIZATION", anon[s:e], "test", "", "ADMIN", entity=1)
    source = Mention(0, len(original), "ORGANIZATION", original, "test", "", "ADMIN", entity=1)
    src_toks, tgt_toks = tokenize(anon), tokenize(tgt)
    links = []
    if aligned is not None:
        i = next(k for k, (a, _) in enumerate(src_toks) if a == s)
        a = tgt.index(aligned)
        links = [(i, j) for j, (x, y) in enumerate(tgt_toks) if a <= x and y <= a + len(aligned)]
    return Transferrer().transfer([source], src_toks, [placeholder], tgt, links=links)


@pytest.mark.parametrize("original, anon, tgt, aligned, masked", [
    ("Comissão de Acesso aos Documentos Administrativos", "A <NAME1_ORGANIZATION_ADMIN> deu razão.",
     "The Commission for Access to Administrative Documents agreed.", "Commission for Access",
     "Commission for Access to Administrative Documents"),
    ("Observatório para a Igualdade no Acesso à Justiça", "O <NAME1_ORGANIZATION_ADMIN> publicou.",
     "The Observatory for Equality in Access to Justice published.", "Observatory",
     "Observatory for Equality in Access to Justice"),
    ("Comissão para a Segurança e Saúde no Trabalho", "A <NAME1_ORGANIZATION_ADMIN> decidiu.",
     "The Commission for Safety and Health at Work decided.", "Commission for Safety and Health",
     "Commission for Safety and Health at Work"),
    # words after the preposition that translate none of the name's are another matter
    ("Comissão de Acesso aos Documentos Administrativos", "A <NAME1_ORGANIZATION_ADMIN> respondeu ao Governo.",
     "The Commission for Access replied to Parliament.", "Commission for Access", "Commission for Access"),
])
def test_an_aligned_body_is_taken_on_past_a_preposition_inside_its_name(original, anon, tgt, aligned, masked):
    assert [x.text for x in _transfer(original, anon, tgt, aligned).mentions] == [masked]


def _run(cfg, src: str, tgt: str):
    return process_in_memory([SegmentPair("d:1", "d", src, tgt)], cfg)[0]


@pytest.mark.parametrize("src, tgt, long", [
    ("Foi notificada a Autoridade Nacional de Comunicações (ANACOM).",
     "The National Communications Authority (ANACOM) was notified.", "National Communications Authority"),
    ("O pedido foi dirigido ao Instituto Nacional de Estatística (INE).",
     "The request was sent to Statistics Portugal (INE).", "Statistics Portugal"),
    ("O subsídio é pago pelo Instituto da Segurança Social (ISS).",
     "The allowance is paid by the Social Security Institute (ISS).", "Social Security Institute"),
    ("A declaração foi entregue à Autoridade Tributária e Aduaneira (AT).",
     "The return was filed with the Tax and Customs Authority (AT).", "Tax and Customs Authority"),
])
def test_an_english_long_form_whose_initials_do_not_fit_its_acronym_takes_its_number(cfg, src, tgt, long):
    """The source numbers the long form and the acronym as one entity and the string step carries the entity by
    its acronym: the English long form before the bracket is that entity too, though its initials differ."""
    res = _run(cfg, src, tgt)
    assert long not in res.anonymized.tgt
    assert {m.entity for m in res.src_mentions} == {m.entity for m in res.tgt_mentions}


@pytest.mark.parametrize("src, tgt, name", [
    ("O Hospital de Santa Maria Maior, E.P.E. admitiu o doente.",
     "Santa Maria Maior Hospital, E.P.E. admitted the patient.", "Santa"),
    ("O Centro Hospitalar de São João, E.P.E. admitiu o doente.",
     "São João Hospital Centre, E.P.E. admitted the patient.", "São"),
    ("A Escola Básica de Nossa Senhora da Luz, em Lagos, fechou.",
     "Nossa Senhora da Luz Primary School, in Lagos, closed.", "Nossa"),
])
def test_a_capitalized_word_of_the_organisations_own_name_beside_its_english_mention_joins_it(cfg, src, tgt, name):
    res = _run(cfg, src, tgt)
    assert f"{name} " not in res.anonymized.tgt, res.anonymized.tgt


@pytest.mark.parametrize("src, tgt", [
    ("Foi notificada a Autoridade Nacional de Comunicações (ANACOM).",
     "The National Communications Authority (ANACOM) was notified."),
    ("O prospeto foi aprovado pela Comissão do Mercado de Valores Mobiliários (CMVM).",
     "The prospectus was approved by the Securities Market Commission (CMVM)."),
    ("A queixa foi apresentada à Inspeção-Geral das Atividades Culturais (IGAC).",
     "The complaint was lodged with the General Inspectorate of Cultural Activities (IGAC)."),
])
def test_an_acronym_carried_by_its_long_forms_string_match_is_not_reported_untransferred(cfg, src, tgt):
    """The string step finds a long form's entity by its acronym; the source's acronym mention is carried by that
    hit, so report.json's untransferred units list only mentions no step carried."""
    res = _run(cfg, src, tgt)
    assert res.transfer.untransferred == [] and res.src_mentions


@pytest.mark.parametrize("src, tgt, masked, visible", [
    ("Testemunha: Francisco Xavier Barreiros Mata", "Witness: F. X. Barreiros Mata", "F. X. Barreiros Mata", None),
    ("Assinou pela compradora Joana Pereira Rocha.", "Signed for the buyer: J. P. Rocha.", "J. P. Rocha", None),
    ("O perito, Artur Costa Vieira Lopes, concluiu.", "The expert, A. C. Vieira Lopes, concluded.",
     "A. C. Vieira Lopes", None),
])
def test_an_english_name_written_with_initials_takes_them_in(cfg, src, tgt, masked, visible):
    """The English side abbreviates a person's first names ("F. X." for "Francisco Xavier"): the initials of the
    entity's own names beside its mention are part of it."""
    res = _run(cfg, src, tgt)
    assert [m.text for m in res.tgt_mentions] == [masked]
    assert visible is None or visible in res.anonymized.tgt


@pytest.mark.parametrize("text, piece, source, whole", [
    ("Witness: F. X. Barreiros Mata", "Barreiros Mata", "Francisco Xavier Barreiros Mata", "F. X. Barreiros Mata"),
    ("signed by A. C. Vieira Lopes.", "Vieira Lopes", "Artur Costa Vieira Lopes", "A. C. Vieira Lopes"),
    ("for Ms Rocha J. P. today", "Rocha", "Rocha Joana Pereira", "Rocha J. P."),
    # an initial that spells none of the entity's names, or one without its dot, stays out
    ("Witness: R. Barreiros Mata", "Barreiros Mata", "Francisco Barreiros Mata", "Barreiros Mata"),
    ("Witness: F Barreiros Mata", "Barreiros Mata", "Francisco Barreiros Mata", "Barreiros Mata"),
])
def test_a_persons_initials_beside_its_mention_are_its_own_words(text, piece, source, whole):
    s = text.index(piece)
    m = Mention(s, s + len(piece), "PERSON", piece, "test", "test", entity=1)
    src = Mention(0, len(source), "PERSON", source, "test", "test", entity=1)
    words = Transferrer()._entity_words([src])
    assert [x.text for x in own_words(text, [m], words, fold)] == [whole]
