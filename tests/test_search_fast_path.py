"""The portal's fast path gives what Whoosh gives: the same hits for every query shape, with postings read
from Whoosh's blocks or from the hot arrays, and a translations panel equal to counting every hit."""

from __future__ import annotations

import json

import numpy as np
import pytest
from paranon.search_portal import search as search_module
from paranon.search_portal.docsets import DocSets, HotPostings, write_hot
from paranon.search_portal.search import Searcher
from whoosh import query as wq

QUERIES = [  # query, language: each shape the parser makes, on words the sample corpus has
    ("conta", "pt"),                      # a word and its inflected forms (an OR of terms)
    ("contas", "both"),                   # both sides
    ("account", "en"),
    ("cont*", "pt"),                      # prefix
    ("cont?s", "pt"),                     # wildcard
    ("conta AND exercício", "pt"),        # AND
    ("conta OR fatura", "pt"),            # OR
    ("conta NOT debitar", "pt"),          # AND NOT
    ("NOT conta", "pt"),                  # NOT alone: everything else
    ('"conta do exercício"', "pt"),       # phrase of inflected words (a sequence of ORs)
    ('"approved the account"', "en"),     # phrase
    ('"the account"', "both"),            # phrase on both sides
    ('"conta exercício"~3', "pt"),        # phrase with slop: words up to two apart
    ('"de a"', "pt"),                     # frequent words, no such phrase
    ("zzzzqx", "both"),                   # no such word
    ("<NAME_PERSON>", "both"),            # a category alone (Every AND a filter)
    ("conta <NAME_ORGANIZATION>", "pt"),  # a word and a category
]


@pytest.fixture(scope="module")
def whoosh_out(sample_out, tmp_path_factory):
    from .test_portal import indexed_with

    return indexed_with(sample_out, tmp_path_factory, "whoosh")


@pytest.fixture()
def searcher(whoosh_out) -> Searcher:
    return Searcher(whoosh_out, cache_size=0)


def _query(s: Searcher, q: str, lang: str):
    parsed, _, _, cats = s._parse(q, lang, False, False)
    query = parsed if parsed is not None else wq.Every()
    if cats:
        query = wq.And([query, *(wq.Term("categories", c) for c in cats)])
    return query


def _whoosh(w, query) -> np.ndarray:
    return np.array(sorted(w.docs_for_query(query)), dtype=np.int64)


@pytest.mark.parametrize("q,lang", QUERIES)
def test_fast_path_finds_what_whoosh_finds(searcher, tmp_path, q, lang):
    query = _query(searcher, q, lang)
    with searcher._searcher() as w:
        write_hot(w, tmp_path, min_df=1)  # every term hot: the arrays are read, not Whoosh's blocks
        expected = _whoosh(w, query)
        from_blocks = DocSets(w).evaluate(query)
        from_arrays = DocSets(w, HotPostings(tmp_path)).evaluate(query)
    assert from_blocks is not None and from_arrays is not None
    assert from_blocks.tolist() == expected.tolist()
    assert from_arrays.tolist() == expected.tolist()


def test_query_shapes_the_fast_path_leaves_to_whoosh(searcher):
    with searcher._searcher() as w:
        assert DocSets(w).evaluate(wq.FuzzyTerm("src", "conta")) is None
        assert DocSets(w).evaluate(wq.TermRange("src", "conta", "contas")) is None
    # and the search still answers them, through Whoosh
    assert searcher.search("conta~", "pt")["total"] >= 1


def test_hits_are_listed_in_corpus_order(searcher):
    hits = searcher.search("conta", "pt", per_page=100)["hits"]
    with open(searcher.outdir / "corpus.jsonl", encoding="utf-8") as fh:
        order = {json.loads(line)["id"]: k for k, line in enumerate(fh)}
    ranks = [order[h["id"]] for h in hits]
    assert len(ranks) > 1 and ranks == sorted(ranks)


@pytest.mark.parametrize("field,term", [("src", "conta"), ("src", "contas"), ("src", "fatura"),
                                        ("tgt", "account"), ("tgt", "the")])
def test_translations_table_counts_every_hit(searcher, monkeypatch, field, term):
    """For one term, the index's table says what highlighting each of its hits and counting their
    translations says."""
    query = wq.Term(field, term)
    from_table = searcher._collect(query, query, None, [field], None, False).counts
    assert from_table, f"{term!r}: no translations in the table"
    monkeypatch.setattr(searcher._local, "table", None)
    monkeypatch.setattr(search_module, "TRANSLATION_SAMPLE", 10**9)
    found = searcher._collect(query, query, None, [field], None, False)
    assert found.sampled == len(found.docs)
    assert from_table.most_common() == found.counts.most_common()


def test_panel_says_when_it_counted_a_sample(searcher):
    words = searcher.search("conta", "pt")
    phrase = searcher.search('"conta do exercício"', "pt")
    assert words["translations_sampled"] is None  # from the table: every hit
    assert phrase["translations_sampled"] == min(phrase["total"], search_module.TRANSLATION_SAMPLE)


def test_first_page_reuses_the_panel_hits_and_later_pages_are_highlighted(searcher):
    first = searcher.search('"the account"', "en", page=1, per_page=5)
    second = searcher.search('"the account"', "en", page=2, per_page=5)
    assert first["total"] == second["total"] > 5
    assert not {h["id"] for h in first["hits"]} & {h["id"] for h in second["hits"]}
    for h in first["hits"] + second["hits"]:
        assert any(h["tgt"][a:b].lower() in ("the", "account", "accounts") for a, b in h["tgt_hl"])


PARITY = [  # query, language, other search options: the tantivy backend answers as the Whoosh one does
    *((q, lang, {}) for q, lang in QUERIES),
    ("comiss* OR pag*", "both", {}),
    ("conta~", "pt", {}),                                  # fuzzy
    ("CONTA", "pt", {"exact": True}),                      # exact form, checked on the candidates
    ("CONTA", "pt", {"case_sensitive": True}),
    ("conta", "pt", {"category": "ORGANIZATION"}),         # category filter
    ("<NAME2_PERSON>", "both", {}),                        # a placeholder by category and number
    ("*", "both", {"doc": "CONTRATO-2023-001"}),           # document filter
    ("conta", "pt", {"translation": "account"}),           # translation filter
]


@pytest.fixture(scope="module")
def tantivy_out(sample_out, tmp_path_factory):
    from .test_portal import indexed_with

    return indexed_with(sample_out, tmp_path_factory, "tantivy")


@pytest.mark.parametrize("q,lang,options", PARITY)
def test_the_tantivy_backend_answers_as_whoosh_does(whoosh_out, tantivy_out, q, lang, options):
    whoosh = Searcher(whoosh_out, cache_size=0).search(q, lang, per_page=100, **options)
    tantivy = Searcher(tantivy_out, cache_size=0).search(q, lang, per_page=100, **options)
    whoosh.pop("took_ms"), tantivy.pop("took_ms")
    assert tantivy == whoosh


SLOPS = [  # field, words, Whoosh slop (largest distance between consecutive words), hits on the sample
    ("tgt", ["approved", "accounts"], 1, 0),  # "approved the accounts": one word between
    ("tgt", ["approved", "accounts"], 2, 12),
    ("src", ["o", "a"], 3, 24),
]


@pytest.mark.parametrize("field,words,slop,hits", SLOPS)
def test_phrase_slop_means_the_same_on_both_backends(whoosh_out, tantivy_out, field, words, slop, hits):
    q = wq.Phrase(field, words, slop=slop)
    with Searcher(whoosh_out, cache_size=0)._view() as w, Searcher(tantivy_out, cache_size=0)._view() as t:
        assert len(w.docs(q)) == len(t.docs(q)) == hits
        assert sorted(w.order[w.docs(q)].tolist()) == t.docs(q).tolist()  # tantivy's numbers: corpus order


@pytest.mark.parametrize("q,lang", [
    ("conta", "pt"),                  # from the table, over every hit
    ('"conta do exercício"', "pt"),   # a phrase: counted over the first hits
    ("account", "en"),                # the other side
])
def test_panel_shares_are_of_every_hit_counted(searcher, q, lang):
    got = searcher.search(q, lang)
    hits = got["translations_hits"]
    assert hits == (got["translations_sampled"] or got["total"])
    shown = sum(t["count"] for t in got["translations"])
    assert shown + got["translations_not_aligned"]["count"] <= hits
    assert all(t["share"] == round(t["count"] / hits, 4) for t in got["translations"])
    assert all(any(c.isalnum() for c in t["text"]) for t in got["translations"])  # never punctuation alone
