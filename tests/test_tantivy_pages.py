"""The tantivy backend reads a page of hits from the count's first hits when it has them, from a search
when it has not, and a shown hit's record by the address its page search returned: the same hits and
records either way."""

from __future__ import annotations

import pytest
from paranon.search_portal import tantivy_index
from paranon.search_portal.search import Searcher
from whoosh import query as wq

PAGES = [  # query, language, first hit, hits wanted: within the first hits, across them, past them
    ("conta", "pt", 0, 2),
    ("conta", "pt", 1, 3),
    ("conta", "pt", 3, 5),
    ("contas", "both", 0, 1000),
    ("account", "en", 2, 2),
    ('"the account"', "both", 0, 4),
    ("NOT conta", "pt", 5, 7),
]


@pytest.fixture(scope="module")
def tantivy_out(sample_out, tmp_path_factory):
    from .test_portal import indexed_with

    return indexed_with(sample_out, tmp_path_factory, "tantivy")


def _query(s: Searcher, q: str, lang: str):
    parsed = s._parse(q, lang, False, False)[0]
    return parsed if parsed is not None else wq.Every()


@pytest.mark.parametrize("q,lang,start,n", PAGES)
@pytest.mark.parametrize("head", [1, 3, 100])
def test_a_page_is_the_same_hits_whether_read_with_the_count_or_searched(tantivy_out, monkeypatch, q, lang, start,
                                                                         n, head):
    monkeypatch.setattr(tantivy_index, "HEAD", head)
    s = Searcher(tantivy_out, cache_size=0)
    query = _query(s, q, lang)
    with s._view() as v:
        every = v.docs(query)
        counts = v.counts(query)
        assert sum(counts) == len(every)
        assert v.page(query, counts, start, n).tolist() == every[start:start + n].tolist()


@pytest.mark.parametrize("q,lang", [("conta", "pt"), ("account", "en"), ('"the account"', "both")])
def test_a_shown_hit_has_the_record_its_corpus_number_has(tantivy_out, q, lang):
    s = Searcher(tantivy_out, cache_size=0)
    query = _query(s, q, lang)
    with s._view() as v:
        shown = v.page(query, v.counts(query), 0, 5).tolist()
        by_address = [v.record(n) for n in shown]  # the page's addresses
        v.page(query, v.counts(query), 5, 1)  # another page: the first one's addresses are forgotten
        assert all(n not in v._where for n in shown)
        by_number = [v.record(n) for n in shown]  # searched by corpus number
    assert shown and by_address == by_number
    assert [rec["id"] for rec, _ in by_address] == [s.ix.view().record(n)[0]["id"] for n in shown]
