"""The English side: which target forms spread, and what the allow list keeps visible there."""

from __future__ import annotations

import copy

import pytest
from paranon.align.finish import Finisher, FormEvidence, target_forms_of
from paranon.align.target import allow_gate, allowed_source_tokens, drop_allowed, plausible_name, spreadable
from paranon.anonymize.consistency import FormKind
from paranon.corpora.model import Mention, SegmentPair

from paranon.inmemory import process_in_memory
from paranon.text import tokenize


def _m(text: str, category: str = "ORGANIZATION", recognizer: str = "transfer:alignment", entity: int = 1) -> Mention:
    return Mention(0, len(text), category, text, recognizer, "test", entity=entity)


@pytest.mark.parametrize("text, category, plausible", [
    ("Agreement", "ORGANIZATION", False),          # one frequent English word
    ("Nothing", "PERSON", False),
    ("Union", "ORGANIZATION", False),
    ("Liechtenstein", "PERSON", False),            # a country: places are public
    ("United Kingdom", "ORGANIZATION", False),
    ("Portugal", "ORGANIZATION", False),
    ("the documents", "ORGANIZATION", False),      # lower-case words are not a name
    ("Board of directors", "ORGANIZATION", False),
    ("Marés Pescas", "ORGANIZATION", True),        # capitalized content words, joiners between
    ("Directorate-General for the Treasury", "ORGANIZATION", True),
    ("Hortogal", "ORGANIZATION", True),            # one word, rare in English
    ("Rui Tavares", "PERSON", True),
])
def test_a_target_form_spreads_only_if_it_reads_as_a_name(text, category, plausible):
    assert plausible_name(_m(text, category)) is plausible


@pytest.mark.parametrize("text, category, ok", [
    ("14 December 2018", "DATE", True),
    ("501234567", "NAMEID", True),
    ("2018", "NAMEID", False),                      # a bare year is no identifier form
    ("Rui Tavares", "PERSON", True),
    ("Council", "ORGANIZATION", False),
])
def test_spreadable_kinds(text, category, ok):
    assert spreadable(_m(text, category), text.lower()) is ok


def test_a_spread_occurrence_is_never_itself_a_form():
    assert not spreadable(_m("Rui Tavares", "PERSON", "consistency"), "rui tavares")


KIND = FormKind("ORGANIZATION", "", "test", False)


@pytest.mark.parametrize("founds, spreads, free", [
    # found by a string or pattern step in one pair: spreads, freely (its occurrences are leaks)
    ([{"hortogal": FormEvidence(KIND, {"hortogal"}, True, 0)}], True, True),
    # aligned from its source entity in two pairs (two documents of two chunks): spreads where its entity is
    ([{"wine institute": FormEvidence(KIND, {"ivv"}, False, 1)},
      {"wine institute": FormEvidence(KIND, {"ivv"}, False, 1)}], True, False),
    ([{"wine institute": FormEvidence(KIND, {"ivv"}, False, 2)}], True, False),
    # aligned once in the whole corpus: an alignment error is not spread
    ([{"agreement partners": FormEvidence(KIND, {"acordo"}, False, 1)}], False, False),
])
def test_a_target_form_earns_its_corpus_spread(founds, spreads, free):
    targets = target_forms_of(founds)
    key = next(iter(founds[0]))
    assert (targets.forms is not None and key in targets.forms.forms) is spreads
    assert (key in targets.free) is free


@pytest.mark.parametrize("src, tgt, links, visible", [
    # the words aligned to an allowed Portuguese form stay visible
    ("O Instituto da Vinha e do Vinho decidiu", "The Wine and Vine Institute decided",
     [(0, 0), (1, 4), (2, 3), (3, 2), (5, 1)], "Wine and Vine Institute"),
    ("Segundo o Instituto da Vinha e do Vinho,", "According to the Wine and Vine Institute,",
     [(0, 0), (0, 1), (1, 2), (2, 6), (3, 5), (4, 4), (5, 3)], "Wine and Vine Institute"),
    ("O INSTITUTO DA VINHA E DO VINHO decidiu", "THE WINE AND VINE INSTITUTE decided",
     [(0, 0), (1, 4), (2, 3), (3, 2), (5, 1)], "WINE AND VINE INSTITUTE"),
])
def test_an_allowed_source_form_keeps_its_aligned_translation_visible(src, tgt, links, visible):
    allow = {"instituto da vinha e do vinho"}
    protected = {j for i, j in links if i in allowed_source_tokens(src, tokenize(src), allow)}
    s = tgt.index(visible)
    m = Mention(s, s + len(visible), "ORGANIZATION", visible, "transfer:alignment", "test", entity=1)
    other = Mention(0, 3, "ORGANIZATION", tgt[:3], "transfer:alignment", "test", entity=2)  # not aligned to it
    kept = drop_allowed([other, m], tgt, tokenize(tgt), allow, protected)
    assert kept == [other] or (kept == [] and tgt[:3] in visible)


# the allow gate turns away a text that holds no allowed form, and lets through every one that does
GATED_ALLOWED = [
    ("O Instituto da Vinha e do Vinho decidiu", {"instituto da vinha e do vinho", "uniao europeia"}, {1, 2, 3, 4, 5, 6}),
    ("Nos termos do direito da UNIÃO EUROPEIA, a Comissão", {"uniao europeia", "ue"}, {5, 6}),
    ("O Banco de Portugal e o Banco de Portugal", {"banco de portugal"}, {1, 2, 3, 6, 7, 8}),
    ("A sociedade X decidiu", {"uniao europeia", "banco de portugal"}, set()),
    ("A sociedade X decidiu", {"x"}, set()),  # (a form of one character is not looked for)
]


@pytest.mark.parametrize("src, allow, tokens", GATED_ALLOWED)
def test_the_allow_gate_gives_the_same_tokens(src, allow, tokens):
    assert allowed_source_tokens(src, tokenize(src), allow) == tokens
    assert allowed_source_tokens(src, tokenize(src), allow, allow_gate(allow)) == tokens


@pytest.mark.parametrize("text", ["European Parliament", "EUROPEAN PARLIAMENT", "European  Parliament"])
def test_an_allowed_form_is_dropped_on_the_target_side_whatever_its_case(text):
    assert drop_allowed([_m(text)], text, tokenize(text), {"european parliament"}, set()) == []


@pytest.mark.parametrize("src, tgt, body_en", [
    ("O Parlamento Europeu aprovou o relatório da Ana Ferreira.",
     "The European Parliament approved Ana Ferreira's report.", "European Parliament"),
    ("A Comissão Europeia consultou a empresa Hortogal, Lda.",
     "The European Commission consulted the company Hortogal, Lda.", "European Commission"),
    ("O Banco de Portugal notificou a Marés Pescas, Lda.",
     "The Bank of Portugal notified Marés Pescas, Lda.", "Bank of Portugal"),
])
def test_an_allowed_public_body_stays_visible_on_both_sides(cfg, src, tgt, body_en):
    """A corpus that keeps public bodies visible (the shipped list) keeps them in both languages, while the
    private names beside them are masked on both sides."""
    c = copy.deepcopy(cfg)
    c["anonymize"]["allow_files"] = ["allow_pt.yaml", "public_bodies_pt.yaml"]
    pairs = [SegmentPair(f"d:{k}", "d", src, tgt) for k in range(3)]
    res = process_in_memory(pairs, c)[0].anonymized
    body_pt = src.split(" ", 1)[1].split(" aprovou")[0].split(" consultou")[0].split(" notificou")[0]
    assert body_pt in res.src and body_en in res.tgt
    assert "<NAME" in res.src and "<NAME" in res.tgt


def test_finisher_counts_withheld_spreads():
    """A translated form spread into a pair whose source side lacks its entity is withheld and counted."""
    from paranon.align.transfer import TransferResult

    tr = TransferResult([])
    kept = Finisher._with_source([_m("Marés", entity=1)], [_m("Wine Institute", entity=2),
                                                             _m("Marés Pescas", entity=1)], tr, set())
    assert [m.text for m in kept] == ["Marés Pescas"] and tr.steps["target_spread_withheld"] == 1


@pytest.fixture(scope="module")
def public_finisher(cfg):
    from paranon.anonymize.engine import Anonymizer

    c = copy.deepcopy(cfg)
    c["anonymize"]["allow_files"] = ["allow_pt.yaml", "public_bodies_pt.yaml"]
    c["anonymize"]["allow"] = ["Instituto da Vinha e do Vinho"]
    return Finisher(Anonymizer(c), "pt", "en")


@pytest.mark.parametrize("src, tgt, links, masked_en", [
    # a listed body whose English name the list has: masked by a stray alignment, made visible again
    ("O Parlamento Europeu aprovou", "The European Parliament approved", [(0, 0), (1, 2), (2, 1), (3, 3)],
     "European Parliament"),
    # a body the user allowed in Portuguese only: the words aligned to it stay visible
    ("O Instituto da Vinha e do Vinho decidiu", "The Wine and Vine Institute decided",
     [(0, 0), (1, 4), (2, 3), (3, 2), (5, 1), (7, 5)], "Wine and Vine Institute"),
    ("Segundo o BANCO DE PORTUGAL,", "According to the BANK OF PORTUGAL,",
     [(0, 0), (0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)], "BANK OF PORTUGAL"),
])
def test_the_finisher_keeps_an_allowed_bodys_english_visible(public_finisher, src, tgt, links, masked_en):
    from paranon.align.transfer import TransferResult
    from paranon.anonymize.anonymized import Anonymized
    from paranon.anonymize.engine import Replaced

    s = tgt.index(masked_en)
    stray = Mention(s, s + len(masked_en), "ORGANIZATION", masked_en, "consistency", "corpus:test", entity=3)
    tr = TransferResult([stray])
    public_finisher._keep_allowed_visible(Anonymized(SegmentPair("d:1", "d", src, tgt), [], Replaced(src, []), 1),
                                          links, tr)
    assert tr.mentions == [] and tr.steps["allowed_visible"] == 1


@pytest.mark.parametrize("text, src_forms, kept", [
    ("European Parliament", {}, False),                                       # not masked on the source side
    ("European Parliament", {1: {"parlamento europeu e do conselho"}}, True),  # masked there in a longer form
    ("EUROPEAN PARLIAMENT", {2: {"parlamento europeu e do conselho"}}, False),  # another entity masked there
    ("European Parliament", {1: {"pe"}}, False),            # only its acronym masked there: the long form visible
    ("European Parliament", {1: {"parlamento europeu"}}, False),              # the allowed form itself
])
def test_an_allowed_english_form_stays_masked_where_its_source_entity_is(text, src_forms, kept):
    got = drop_allowed([_m(text)], text, tokenize(text), {"european parliament", "parlamento europeu"}, set(),
                       src_forms)
    assert bool(got) is kept
