"""The numbering authority honours a reviewer's say: a ``same_entity`` group is one number in its scope (a
must-link in the name clustering, a redirect for other categories), ``different_entities`` never share one (a
cannot-link). The names, firms and identifiers below are made up for these tests."""

from __future__ import annotations

import pytest
from paranon.anonymize.anonymized import Anonymized
from paranon.anonymize.consistency import CorpusForms, FormKind
from paranon.anonymize.corpus import make_consistent
from paranon.anonymize.engine import Anonymizer, apply_mentions
from paranon.anonymize.numbering import Constraints, Numberer, cluster_names
from paranon.corpora.model import Mention, SegmentPair

from paranon.config import load_config

PARTICLES = frozenset({"da", "de", "do", "das", "dos", "e"})


def numbered(forms: list[tuple[str, str]], same=(), different=(), aliases=None) -> dict[str, int]:
    """Each form's number when ``forms`` (category, text) are one scope's mentions in this order."""
    ms, at = [], 0
    for cat, text in forms:
        ms.append(Mention(at, at + len(text), cat, text, "test"))
        at += len(text) + 1
    Numberer(PARTICLES, 0.45, Constraints(same, different)).assign(ms, aliases)
    return {m.text: m.entity for m in ms}


@pytest.mark.parametrize("forms, same, different, together, apart", [
    # no say: the clustering alone (variants of one name share a number, strangers do not)
    ([("PERSON", "Quitéria Bragança"), ("PERSON", "Bragança"), ("PERSON", "Olegário Frazão")], (), (),
     [("Quitéria Bragança", "Bragança")], [("Bragança", "Olegário Frazão")]),
    # merge: a nickname with no word in common joins the full name, and the bare surname follows it
    ([("PERSON", "Quitéria Bragança"), ("PERSON", "Quica"), ("PERSON", "Bragança")], [["Quitéria Bragança", "quica"]],
     (), [("Quitéria Bragança", "Quica"), ("Quica", "Bragança")], []),
    # split: two people with the same surname and the bare surname the clustering would give the first
    ([("PERSON", "Quitéria Bragança"), ("PERSON", "Bragança")], (), [["QUITÉRIA BRAGANÇA", "Bragança"]],
     [], [("Quitéria Bragança", "Bragança")]),
    # merge of two firms' names (not clustered: joined by the group) and of two spellings of an identifier
    ([("ORGANIZATION", "Tecelagem Arouquense Lda."), ("ORGANIZATION", "TAL"), ("NAMEID", "PT-77/31"),
      ("NAMEID", "77-31 PT")], [["Tecelagem Arouquense Lda.", "TAL"], ["PT-77/31", "77-31 PT"]], (),
     [("Tecelagem Arouquense Lda.", "TAL"), ("PT-77/31", "77-31 PT")], [("TAL", "PT-77/31")]),
    # a merged group keeps one number when a third form is the group's short form (an alias)
    ([("ORGANIZATION", "Vidros Ferrão SA"), ("ORGANIZATION", "Casa Ferrão"), ("ORGANIZATION", "Vidros Ferrão")],
     [["Vidros Ferrão SA", "Casa Ferrão"]], (), [("Vidros Ferrão", "Casa Ferrão"), ("Vidros Ferrão SA", "Casa Ferrão")],
     []),
])
def test_decisions_join_and_part_numbers(forms, same, different, together, apart):
    aliases = {"ORGANIZATION:vidros ferrao": "ORGANIZATION:vidros ferrao sa"}
    n = numbered(forms, same, different, aliases)
    assert all(n[a] == n[b] for a, b in together), n
    assert all(n[a] != n[b] for a, b in apart), n


def test_a_split_short_form_is_not_its_alias_s_entity():
    aliases = {"ORGANIZATION:grupo lenhador": "ORGANIZATION:grupo lenhador construcoes sa"}
    forms = [("ORGANIZATION", "Grupo Lenhador Construções SA"), ("ORGANIZATION", "Grupo Lenhador")]
    assert len(set(numbered(forms, aliases=aliases).values())) == 1
    split = numbered(forms, different=[["Grupo Lenhador", "Grupo Lenhador Construções SA"]], aliases=aliases)
    assert len(set(split.values())) == 2


@pytest.mark.parametrize("variants, same, different, expected", [
    # a cannot-link between two clusters keeps a third name that fits both from joining them
    (["Rosalina Teixeira Pombo", "Rosalina Pombo", "Rosalina Teixeira"], (),
     [["Rosalina Pombo", "Rosalina Teixeira"]], 2),
    # must-links are one cluster from the start, whatever their distance
    (["Belarmino Cunha", "Xana Cunha Vaz", "Miro"], [["Belarmino Cunha", "Miro"]], (), 2),
    # a must-link wins over a cannot-link of the same pair
    (["Belarmino Cunha", "Miro"], [["Belarmino Cunha", "Miro"]], [["Belarmino Cunha", "Miro"]], 1),
])
def test_the_clustering_takes_must_and_cannot_links(variants, same, different, expected):
    labels = cluster_names(variants, PARTICLES, 0.45, Constraints(same, different))
    assert len(set(labels)) == expected
    for forms in same:
        assert len({labels[variants.index(f)] for f in forms}) == 1
    for forms in different:
        if not same:
            assert len({labels[variants.index(f)] for f in forms}) == len(forms)


@pytest.mark.parametrize("same, quica_is_hers", [
    ((), False),  # without a say, a form masked by corpus consistency is an entity of its own
    ([["Quitéria Bragança", "Quica"]], True),
])
def test_corpus_consistency_gives_a_group_s_form_the_group_s_number(same, quica_is_hers):
    cfg = load_config()
    cfg["anonymize"]["same_entity"] = [list(g) for g in same]
    an = Anonymizer(cfg)
    first = SegmentPair("d:1", "d", "Assinou Quitéria Bragança.", "x")
    named = [Mention(8, 25, "PERSON", "Quitéria Bragança", "person", entity=1)]
    second = SegmentPair("d:2", "d", "Visto por Quica.", "x")
    items = [Anonymized(first, named, apply_mentions(first.src, named, an.ops, "d"), 2),
             Anonymized(second, [], apply_mentions(second.src, [], an.ops, "d"), 2)]
    forms = CorpusForms()
    forms._add_kind("quica", FormKind("PERSON", "", "test", False))  # another document's finding
    out, added = make_consistent(items, forms, an, None)
    assert added == 1
    assert (out[1].mentions[0].entity == 1) is quica_is_hers


# two full names with different given names, neither among the other's words, are two people sharing surnames;
# an initial fits the name it begins, and a later given name the full name it is part of
@pytest.mark.parametrize("first, second, same", [
    ("Abílio Serra Vilaça", "Lurdes Serra Vilaça", False),
    ("Custódia Maria Brandão Lopes", "Tiago Brandão Lopes", False),
    ("PIRES MOTA, Olavo", "Gaspar Pires Mota", False),
    ("Olavo Pires Mota", "PIRES MOTA, Olavo", True),
    ("H. Brandão Lopes", "Henrique Brandão Lopes", True),
    ("Custódia Maria Brandão Lopes", "Maria Brandão Lopes", True),
    ("Oleksii Bondar-Tkachenko", "Bondar-Tkachenko", True),  # (a hyphenated surname alone)
])
def test_siblings_sharing_surnames_are_two_people(first, second, same):
    n = numbered([("PERSON", first), ("PERSON", second)])
    assert (n[first] == n[second]) is same


# a full date is numbered by its value: its layouts are one entity; a span of days or another day is not it
@pytest.mark.parametrize("forms, same", [
    (["2024-06-28", "28/06/2024"], True),
    (["16/10/2024", "16 de outubro de 2024"], True),
    (["três de março de dois mil e vinte e dois", "03.03.2022"], True),
    (["1 a 15 de março de 2024", "15 de março de 2024"], False),
    (["28/06/2024", "29/06/2024"], False),
])
def test_a_dates_layouts_share_its_number(forms, same):
    n = numbered([("DATE", f) for f in forms])
    assert (n[forms[0]] == n[forms[1]]) is same


# a company's name before its dash (as written or with its legal form), its acronym after the dash and its first
# word when no other company begins with it name the company: one number in the document
@pytest.mark.parametrize("doc, short", [
    (["NORVINHA – VINHOS DO NORTE, S.A., com sede no Porto, e o comprador.", "A NORVINHA entrega as garrafas."],
     "NORVINHA"),
    (["BANCO DA COSTA ATLÂNTICA – BCA, S.A., com sede em Lisboa.", "O Banco da Costa Atlântica, S.A. informa."],
     "Banco da Costa Atlântica, S.A."),
    (["A Lusopack Holding, S.L. adquiriu a Cartonagens Mondego, Lda.", "A Lusopack passa a controlar a empresa."],
     "Lusopack"),
])
def test_a_companys_short_name_shares_its_number(anonymizer, doc, short):
    pairs = [SegmentPair(str(i), "d", t, t) for i, t in enumerate(doc)]
    found = [ms for ms, _ in anonymizer.anonymize_document(pairs)]
    company = next(m for m in found[0] if m.category == "ORGANIZATION")
    later = next(m for m in found[1] if m.text == short)
    assert later.entity == company.entity
