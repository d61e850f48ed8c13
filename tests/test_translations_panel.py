"""The translations panel's rules (search_portal/translations.py), as examples of use."""

from __future__ import annotations

import pytest
from paranon.search_portal.translations import TableBuilder, Tally, aligned, link_maps, pair_tokens, panel


def record(src: str, tgt: str, alignment: str) -> dict:
    """A pair as ``corpus.jsonl`` holds it; tokens are the words and signs split by spaces here."""
    return {"src": src, "tgt": tgt, "src_lang": "pt", "tgt_lang": "en", "alignment": alignment}


def translation_of(src: str, tgt: str, alignment: str, searched_words: list[str], side: str = "src"):
    rec = record(src, tgt, alignment)
    toks, links = pair_tokens(rec)
    text = rec[side]
    hits = [k for k, (a, b) in enumerate(toks[side]) if text[a:b].lower() in searched_words]
    spans, translation = aligned(rec, toks, side, hits, link_maps(links))
    other = "tgt" if side == "src" else "src"
    return translation, [rec[other][a:b] for a, b in spans]


@pytest.mark.parametrize("src,tgt,alignment,searched,expected", [
    # a content word's translation loses the article and the comma its links also reach
    ("a Comissão decide", "the Commission , decides", "1-0 1-1 1-2 2-3", ["comissão"], "Commission"),
    ("o Conselho aprova", "the Council approves", "1-0 1-1 2-2", ["conselho"], "Council"),
    ("o Tribunal decide", "The Court decides .", "1-0 1-1 2-2 2-3", ["tribunal"], "Court"),
    # linked only to a function word or to punctuation: no translation (the panel's "not aligned")
    ("a Comissão decide", "the Commission decides", "1-0 2-2", ["comissão"], ""),
    ("o Conselho , aprova", "the Council , approves", "1-2 3-3", ["conselho"], ""),
    ("o acordo entra", "the agreement of enters", "1-2 2-3", ["acordo"], ""),
    # a function word searched for keeps its function-word translation
    ("taxa de juro", "rate of interest", "0-0 1-1 2-2", ["de"], "of"),
    ("contrato com a empresa", "contract with the company", "0-0 1-1 2-2 3-3", ["com"], "with"),
    ("ele e ela", "he and she", "0-0 1-1 2-2", ["e"], "and"),
])
def test_a_word_is_translated_by_words_that_can_stand_alone(src, tgt, alignment, searched, expected):
    assert translation_of(src, tgt, alignment, searched)[0] == expected


@pytest.mark.parametrize("src,tgt,alignment,searched,expected,highlight", [
    # a phrase: the stretch its words' links span, the unaligned word inside included
    ("a taxa de juro sobe", "the interest rate rises", "1-2 3-1 4-3", ["taxa", "juro"],
     "interest rate", ["interest", "rate"]),
    ("Comissão Europeia decide", "European Commission decides", "0-1 1-0 2-2", ["comissão", "europeia"],
     "European Commission", ["European", "Commission"]),
    ("os Estados-Membros devem", "the Member States shall", "1-1 1-2 2-3", ["estados-membros"],
     "Member States", ["Member", "States"]),
    # a stretch that would take a word aligned outside the occurrence: only the occurrence's own words
    ("o Acordo EEE", "the EEA Agreement", "1-1 1-2 2-1", ["acordo"], "Agreement", ["Agreement"]),
    ("Comité Misto do EEE", "EEA Joint Committee", "0-0 0-2 1-1 3-0", ["comité"], "Committee", ["Committee"]),
    ("Regulamento da Comissão", "Commission Regulation", "0-1 2-0 0-0", ["comissão"], "Commission",
     ["Commission"]),
])
def test_the_highlight_is_the_translation_of_the_occurrence(src, tgt, alignment, searched, expected, highlight):
    translation, spans = translation_of(src, tgt, alignment, searched)
    assert translation == expected
    assert spans == highlight


@pytest.mark.parametrize("src,tgt,alignment,expected,highlight", [
    # a word twice in a pair: one translation for the pair (not "Regulation Regulation"), both highlighted
    ("regulamento altera regulamento", "Regulation amending Regulation", "0-0 1-1 2-2", "Regulation",
     ["Regulation", "Regulation"]),
    # the most frequent of its occurrences' translations, case-folded
    ("acordo e acordo e acordo", "agreement and Agreement and deal", "0-0 1-1 2-2 3-3 4-4", "agreement",
     ["agreement", "Agreement", "deal"]),
    # an occurrence with no content-word translation does not make the pair's translation
    ("artigo e artigo", "the and Article", "0-0 1-1 2-2", "Article", ["Article"]),
])
def test_one_translation_per_pair(src, tgt, alignment, expected, highlight):
    translation, spans = translation_of(src, tgt, alignment, [src.split()[0]])
    assert translation == expected
    assert spans == highlight


def test_a_placeholder_does_not_translate_a_word():
    assert translation_of("a Comissão decide", "the <NAME1_ORGANIZATION> decides", "1-1 2-2", ["comissão"])[0] == ""


@pytest.mark.parametrize("added,expected", [
    ([("within", 3), ("Within", 2)], [("within", 5)]),
    ([("Commission", 1), ("commission", 2), ("COMMISSION", 1)], [("commission", 4)]),
    ([("European  Commission", 1), ("European Commission", 2), ("Council", 2)],
     [("European Commission", 3), ("Council", 2)]),
    ([("", 4), ("Annex", 1)], [("Annex", 1)]),
])
def test_translations_are_counted_case_folded_in_their_most_frequent_form(added, expected):
    tally = Tally()
    for text, n in added:
        tally.add(text, n)
    assert tally.most_common() == expected


@pytest.mark.parametrize("counted,hits,shares,not_aligned", [
    # the share is over every hit; the hits with no translation are a row of their own
    ([("Agreement", 25)], 48, [0.5208], (23, 0.4792)),
    ([("Commission", 30), ("Committee", 10)], 40, [0.75, 0.25], (0, 0.0)),
    ([], 12, [], (12, 1.0)),
    ([], 0, [], (0, 0.0)),
])
def test_panel_shares_are_of_all_hits(counted, hits, shares, not_aligned):
    tally = Tally()
    for text, n in counted:
        tally.add(text, n)
    got = panel(tally, hits)
    assert [t["share"] for t in got["translations"]] == shares
    assert (got["translations_not_aligned"]["count"], got["translations_not_aligned"]["share"]) == not_aligned
    assert got["translations_hits"] == hits


@pytest.mark.parametrize("pairs,term,expected", [
    # the table counts one translation per pair, case-folded, never punctuation or a lone article
    ([("regulamento e regulamento", "Regulation and Regulation", "0-0 1-1 2-2"),
      ("o regulamento", "the regulation", "1-1")], "regulamento", [("Regulation", 2)]),
    ([("a Comissão", "the Commission", "1-0 1-1"), ("a Comissão", "the , Commission", "1-1")],
     "comissão", [("Commission", 1)]),
    ([("taxa", "rate", "0-0"), ("taxa", "Rate", "0-0"), ("taxa", "rate", "0-0")], "taxa", [("rate", 3)]),
])
def test_table_counts_what_a_search_would(tmp_path, pairs, term, expected):
    import json

    builder = TableBuilder(lambda word: [word.lower()])
    for src, tgt, alignment in pairs:
        rec = record(src, tgt, alignment)
        builder.add(rec, *pair_tokens(rec))
    builder.write(tmp_path)
    table = json.loads((tmp_path / "translations.json").read_text(encoding="utf-8"))
    assert [tuple(x) for x in table["src"][term]] == expected
