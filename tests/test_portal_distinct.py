"""Identical pairs collapsed over the whole result (issue 21): duplicate groups found at index time
(``search_portal/groups.py``), a result list paged over distinct pairs each with its count, on both backends."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from paranon.search_portal.groups import Groups, text_key, write_groups

from .test_portal import app, portal_out  # noqa: F401  (the sample indexed by each backend)


def line(src: str, tgt: str, n: int = 0, **extra) -> str:
    rec = {"id": f"doc-1:{n}", "doc": "doc-1", "src_lang": "pt", "tgt_lang": "en", "src": src, "tgt": tgt,
           "src_mentions": [], **extra}
    return json.dumps(rec, ensure_ascii=False)


GROUPS = [  # the corpus's (source, target) texts, each pair's group (the corpus number of its text's first pair)
    ([("Artigo 1.º", "Article 1"), ("Artigo 2.º", "Article 2"), ("Artigo 1.º", "Article 1")], [0, 1, 0]),
    ([("Contrato", "Agreement"), ("Contrato", "Contract"), ("Contrato", "Agreement")], [0, 1, 0]),  # the target counts
    ([("Contrato", "Agreement"), ("contrato", "agreement")], [0, 1]),  # so does case
    ([('O "Banco", disse', 'The "Bank", said'), ('O "Banco", disse', 'The "Bank", said')], [0, 0]),  # quotes
    ([("a", "b"), ("a", "b"), ("a", "b"), ("c", "d"), ("c", "d")], [0, 0, 0, 3, 3]),
]


@pytest.mark.parametrize("texts,groups", GROUPS)
def test_pairs_with_the_same_text_share_a_group(tmp_path, texts, groups):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(line(s, t, n) + "\n" for n, (s, t) in enumerate(texts)), encoding="utf-8")
    assert write_groups(corpus, tmp_path).tolist() == groups
    g = Groups(tmp_path, len(texts))
    assert g.known and g.lead.tolist() == groups


KEYS = [  # two lines, whether they hold the same text
    (line("Contrato", "Agreement", 1), line("Contrato", "Agreement", 2, doc="doc-9"), True),  # ids do not count
    (line("Contrato", "Agreement"), json.dumps({"tgt": "Agreement", "src": "Contrato", "id": "x"}), True),  # order
    (line("Contrato", "Agreement"), line("Contrato", "Agreement.", 1), False),
    (line('a", "tgt": "b', "c"), line("a", 'b", "tgt": "c'), False),  # a key's text inside a value is text
]


@pytest.mark.parametrize("a,b,same", KEYS)
def test_the_text_key_reads_source_and_target_only(a, b, same):
    assert (text_key(a.encode("utf-8")) == text_key(b.encode("utf-8"))) is same


def test_an_index_without_groups_collapses_nothing(tmp_path):
    g = Groups(tmp_path, 3)
    assert not g.known and g.lead.tolist() == [0, 1, 2]


def test_distinct_keeps_each_groups_first_hit_in_order():
    g = Groups.__new__(Groups)
    g.lead = np.array([0, 1, 0, 3, 1, 0])
    first, counts = g.distinct(np.array([1, 2, 3, 4, 5]))  # hits: corpus numbers, in corpus order
    assert first.tolist() == [0, 1, 2] and counts.tolist() == [2, 2, 1]  # 1 and 4; 2 and 5; 3


def pages(client, **args) -> tuple[dict, list[dict]]:
    """The first page's answer and every distinct hit, page by page (10 a page)."""
    first = client.get("/api/search", query_string={"per_page": 10, **args}).get_json()
    got, page = [], 1
    while True:
        r = client.get("/api/search", query_string={"per_page": 10, "page": page, **args}).get_json()
        if not r["hits"]:
            return first, got
        got += r["hits"]
        page += 1


SEARCHES = [  # a search's filters: the distinct list holds every text once, and its counts add up to the hits
    {"q": "regulamento", "lang": "pt"},
    {"q": "contrato"},
    {"q": '"do presente"', "lang": "pt"},
    {"q": "contrat*", "lang": "pt"},
    {"q": "regulamento", "lang": "pt", "exact": "1"},
    {"q": "Regulamento", "lang": "pt", "case": "1"},
    {"q": "regulamento", "category": "ORGANIZATION"},
    {"q": "<ORGANIZATION>"},
]


@pytest.mark.parametrize("args", SEARCHES)
def test_a_result_lists_each_distinct_pair_once_with_its_count(client, args):
    first, distinct = pages(client, **args)
    every = client.get("/api/search", query_string={"per_page": 100, "distinct": 0, **args}).get_json()
    texts = [(h["src"], h["tgt"]) for h in distinct]
    assert len(texts) == len(set(texts)) == first["distinct"]
    assert sum(h["same"] for h in distinct) == first["total"] == every["total"]
    assert first["distinct"] <= first["total"]
    if every["total"] <= 100:  # each distinct pair is its text's first hit, with as many hits as it says
        all_texts = [(h["src"], h["tgt"]) for h in every["hits"]]
        assert [h["id"] for h in distinct] == [h["id"] for k, h in enumerate(every["hits"])
                                               if (h["src"], h["tgt"]) not in all_texts[:k]]
        assert [h["same"] for h in distinct] == [all_texts.count(t) for t in texts]


def test_the_sample_has_repeated_pairs_to_collapse(client):
    first, _ = pages(client, q="regulamento", lang="pt")
    assert first["distinct"] < first["total"]


def test_a_document_or_translation_filter_counts_only_its_own_hits(client):
    r = client.get("/api/search", query_string={"q": "regulamento", "lang": "pt", "per_page": 100}).get_json()
    doc = r["hits"][0]["doc"]
    top = r["translations"][0]["text"]
    for args in ({"doc": doc}, {"translation": top}):
        first, distinct = pages(client, q="regulamento", lang="pt", **args)
        assert sum(h["same"] for h in distinct) == first["total"] > 0
        assert len({(h["src"], h["tgt"]) for h in distinct}) == first["distinct"]
        if "doc" in args:
            assert all(h["doc"] == doc for h in distinct)


@pytest.mark.parametrize("q", ["contrato", "o"])
def test_the_page_counts_pairs_and_distinct_pairs_and_pages_over_distinct_ones(client, q):
    r = client.get("/api/search", query_string={"q": q, "lang": "pt", "per_page": 5}).get_json()
    assert 5 < r["distinct"] < r["total"]
    html = client.get(f"/?q={q}&lang=pt&per_page=5").get_data(as_text=True)
    assert f'<strong id="total">{r["total"]}</strong> pairs' in html
    assert f'<strong id="distinct">{r["distinct"]}</strong> distinct' in html
    assert html.count('<article class="hit">') == 5
    last = -(-r["distinct"] // 5)
    assert f'page={last}"' in html and f'page={last + 1}"' not in html
    for h in r["hits"]:
        assert (f"×{h['same']} identical pairs" in html) is (h["same"] > 1)
    kwic = client.get(f"/?q={q}&lang=pt&view=kwic&per_page=5").get_data(as_text=True)
    assert f'page={-(-r["total"] // 5)}"' in kwic  # the concordance has a line per hit


def test_an_index_built_before_the_groups_lists_every_pair(portal_out, tmp_path):  # noqa: F811
    from paranon.search_portal.search import Searcher

    out = tmp_path / "out"
    shutil.copytree(portal_out, out, symlinks=True)
    (out / "index" / "groups.bin").unlink()  # as an index built before groups.py
    r = Searcher(out, cache_size=0).search("regulamento", "pt", per_page=100)
    assert r["distinct"] == r["total"] == len(r["hits"]) > 1 and {h["same"] for h in r["hits"]} == {1}
