"""The query language, the concordance and the pages a reader moves through (Flask's test client, both
index backends)."""

from __future__ import annotations

import json
import re

import pytest
from paranon.search_portal.budget import QueryError
from paranon.search_portal.kwic import concordance, keyword_span, line_of
from paranon.search_portal.pages import page_numbers
from paranon.search_portal.query import read_query

from paranon.text import PLACEHOLDER

from .test_portal import app, portal_out  # noqa: F401  (the sample indexed by each backend)


def total(client, **args) -> int:
    r = client.get("/api/search", query_string={"per_page": 100, **args})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["total"]


def hits(client, **args) -> list[dict]:
    return client.get("/api/search", query_string={"per_page": 100, **args}).get_json()["hits"]


EXCLUDED = [  # query that excludes, the query it narrows, the word no hit may hold
    ("contrato -serviços", "contrato", "serviços"),
    ("contrato NOT serviços", "contrato", "serviços"),
    ('conta -"conta do exercício"', "conta", "exercício"),
    ("contas -aprovou", "contas", "aprovou"),
]


@pytest.mark.parametrize("q,wider,word", EXCLUDED)
def test_a_hyphen_or_not_excludes_the_word(client, q, wider, word):
    narrow = hits(client, q=q, lang="pt")
    assert 0 < len(narrow) < total(client, q=wider, lang="pt")
    assert not any(word in h["src"].lower() for h in narrow)


def test_a_hyphen_inside_a_word_is_part_of_it():
    assert read_query("estados-membros").text == "estados-membros"
    assert read_query("-membros").text == "NOT membros"
    assert read_query('"a -b" -c').text == '"a -b" NOT c'  # inside a phrase a hyphen is a character


MISPLACED = [  # query, what the 400 says
    ("contrato AND", "ends with AND"),
    ("contrato OR", "ends with OR"),
    ("contrato NOT", "ends with NOT"),
    ("AND contrato", "starts with AND"),
    ("contrato AND OR banco", "two operators in a row"),
    ("<NAME2_FOO>", "Unknown category"),
    ("<CLIENT>", "Unknown category"),
    ("contrato -<PERSON>", "cannot be excluded"),
    ("contrato NOT <NAME2_PERSON>", "cannot be excluded"),
]


@pytest.mark.parametrize("q,says", MISPLACED)
def test_a_misplaced_operator_or_unknown_tag_is_400_saying_so(client, q, says):
    r = client.get("/api/search", query_string={"q": q})
    assert r.status_code == 400 and says in r.get_json()["error"]
    page = client.get("/", query_string={"q": q})
    assert page.status_code == 400 and says in page.get_data(as_text=True)


PLACEHOLDERS = [  # query, the categories every hit must have, whether every hit holds exactly that tag
    ("<PERSON>", "PERSON", None),
    ("<NAME_PERSON>", "PERSON", None),
    ("<person>", "PERSON", None),
    ("<ORGANIZATION>", "ORGANIZATION", None),
    ("<NAME2_PERSON>", "PERSON", "<NAME2_PERSON>"),
    ("<name2_person>", "PERSON", "<NAME2_PERSON>"),
    ("<NAME1_ORGANIZATION_COMPANY>", "ORGANIZATION", "<NAME1_ORGANIZATION_COMPANY>"),
]


@pytest.mark.parametrize("q,category,tag", PLACEHOLDERS)
def test_a_placeholder_query_finds_its_category_or_its_entity(client, q, category, tag):
    found = hits(client, q=q)
    assert found and all(category in h["categories"] for h in found)
    if tag:
        assert all(tag in h["src"] + h["tgt"] for h in found)
        corpus = [json.loads(x) for x in client.get("/download?format=jsonl").get_data(as_text=True).splitlines()]
        everywhere = sum(tag in r["src"] + r["tgt"] for r in corpus)
        assert total(client, q=q) == everywhere  # every pair with the tag, and only those


def test_a_numbered_tag_finds_fewer_pairs_than_its_category(client):
    assert 0 < total(client, q="<NAME2_PERSON>") < total(client, q="<PERSON>")


def test_an_organization_subtype_finds_only_that_subtype(client):
    found = hits(client, q="<ORGANIZATION_ADMIN>")
    assert found and all("_ORGANIZATION_ADMIN>" in h["src"] + h["tgt"] for h in found)
    assert total(client, q="<ORGANIZATION_ADMIN>") < total(client, q="<ORGANIZATION>")


def hit(src: str, src_hl: list[list[int]], tgt: str = "the other side", tgt_hl=(), translation="") -> dict:
    return {"id": "d:1", "src": src, "tgt": tgt, "src_hl": src_hl, "tgt_hl": list(tgt_hl), "translation": translation}


LONG_LEFT = "entre <NAME1_ORGANIZATION_COMPANY> e a " * 3


KWIC = [  # hit, left, keyword, right, translation
    (hit("O CONTRATO é válido.", [[2, 10]], translation="AGREEMENT"), "O ", "CONTRATO", " é válido.", "AGREEMENT"),
    (hit(LONG_LEFT + "CONTRATO", [[len(LONG_LEFT), len(LONG_LEFT) + 8]]), None, "CONTRATO", "", ""),
    (hit("a conta do exercício", [[2, 7], [11, 20]]), "a ", "conta do exercício", "", ""),
    (hit("paid to X", [], "pago a X", [[0, 4]]), "", "pago", " a X", ""),
]


@pytest.mark.parametrize("h,left,kw,right,translation", KWIC)
def test_a_concordance_line_keeps_whole_tokens_and_says_what_is_aligned(h, left, kw, right, translation):
    line = line_of(h, width=30)
    assert line.kw == kw and line.right == right and line.translation == translation
    if left is not None:
        assert line.left == left
    for part in (line.left, line.right):  # a placeholder is whole or absent, never a fragment
        assert part.count("<") == part.count(">") == len(PLACEHOLDER.findall(part))
    assert line.cut_left == (h["src_hl"] != [] and len(h["src"][:h["src_hl"][0][0]]) > 30)


def test_the_keyword_is_the_first_run_of_highlighted_words():
    text = "a taxa de juro e outra taxa"
    assert keyword_span([[2, 6], [10, 14], [23, 27]], text) == (2, 14)


SORTS = [  # key, the order of the lines' ids
    ("corpus", ["1", "2", "3"]),
    ("left", ["2", "3", "1"]),   # the nearest left word first: "a" < "b" < "c"
    ("right", ["3", "1", "2"]),
]


@pytest.mark.parametrize("key,order", SORTS)
def test_concordance_lines_sort_by_the_context_nearest_the_hit(key, order):
    lines = [("1", "z c KW b"), ("2", "y a KW c"), ("3", "x b KW a")]
    hs = [{**hit(t, [[t.index("KW"), t.index("KW") + 2]]), "id": i} for i, t in lines]
    assert [x.id for x in concordance(hs, key)] == order


def test_the_concordance_page_has_pages_sorts_and_not_aligned(client):
    n = total(client, q="contrato", lang="pt")
    html = client.get("/", query_string={"q": "contrato", "lang": "pt", "view": "kwic", "per_page": 10}).get_data(
        as_text=True)
    rows = html.count('<td class="kw">')
    assert rows == 10 and n > 10
    assert 'aria-current="page">1<' in html and "page=2" in html
    assert "sort=left" in html and "sort=right" in html
    assert "&lt;NAME" not in html.split("<tbody>")[1]  # tags are drawn whole
    seen = 0
    for page in range(1, -(-n // 10) + 1):
        body = client.get("/", query_string={"q": "contrato", "lang": "pt", "view": "kwic", "per_page": 10,
                                             "sort": "right", "page": page}).get_data(as_text=True)
        seen += body.count('<td class="kw">')
        assert body.count('<td class="trans">') == body.count('<td class="kw">')
    assert seen == n


def test_the_form_shows_and_keeps_the_document_and_translation_filters(client):
    doc = next(iter(client.get("/api/stats").get_json()["documents"]))
    html = client.get("/", query_string={"q": "contrato", "doc": doc, "translation": "AGREEMENT"}).get_data(
        as_text=True)
    form = html.split("</form>")[0]
    assert f'name="doc" value="{doc}"' in form and 'name="translation" value="AGREEMENT"' in form


PAGE_NUMBERS = [  # page, last, the links shown (None: an ellipsis)
    (1, 1, []),
    (1, 3, [1, 2, 3]),
    (1, 24, [1, 2, 3, None, 24]),
    (12, 24, [1, None, 10, 11, 12, 13, 14, None, 24]),
    (24, 24, [1, None, 22, 23, 24]),
]


@pytest.mark.parametrize("page,last,shown", PAGE_NUMBERS)
def test_numbered_paging_shows_the_ends_and_the_pages_around(page, last, shown):
    assert page_numbers(page, last) == shown


def test_the_home_page_shows_the_corpus_and_example_queries(client):
    stats = client.get("/api/stats").get_json()
    html = client.get("/").get_data(as_text=True)
    assert f'<strong id="pairs">{stats["pairs"]}</strong>' in html and "PT → EN" in html
    examples = re.findall(r'<a class="example" href="([^"]+)">([^<]+)</a>', html)
    assert len(examples) >= 4 and [w for _, w in examples] == stats["examples"]
    for href, word in examples:  # each example is an ordinary word of the corpus that finds pairs
        assert word.isalpha() and word == word.lower()
        assert client.get(href.replace("&amp;", "&")).status_code == 200 and total(client, q=word) > 0


def test_the_pair_page_shows_alignment_rows_and_the_neighbouring_segments(client):
    html = client.get("/pair/doc-0001:3").get_data(as_text=True)
    assert 'id="alignment"' in html and html.count("→") >= 3
    assert "/pair/doc-0001:2" in html and "/pair/doc-0001:4" in html and "/pair/doc-0001:1" in html
    first = client.get("/pair/doc-0001:1").get_data(as_text=True)
    assert "/pair/doc-0001:2" in first and "/pair/doc-0001:0" not in first


ERRORS = [  # url, status, what the page says
    ("/nope", 404, "no such page"),
    ("/pair/nope", 404, "no such page"),
    ("/?q=" + "x" * 5000, 414, "too long"),
    ("/?q=contrato&page=x", 400, "whole numbers"),
    ("/?q=contrato&view=kwic&sort=up", 400, "Unknown sort"),
]


@pytest.mark.parametrize("url,status,says", ERRORS)
def test_every_error_is_a_page_of_the_portal(client, url, status, says):
    r = client.get(url)
    html = r.get_data(as_text=True)
    assert r.status_code == status and says in html and '<header><a class="brand"' in html


def test_a_post_is_a_405_page(client):
    r = client.post("/")
    assert r.status_code == 405 and "only answers GET" in r.get_data(as_text=True)


def test_the_api_answers_errors_in_json(client):
    r = client.get("/api/search?q=" + "x" * 5000)
    assert r.status_code == 414 and "too long" in r.get_json()["error"]


def test_the_help_page_is_linked_from_the_search_box(client):
    form = client.get("/?q=conta").get_data(as_text=True).split("</form>")[0]
    assert 'href="/help"' in form
    html = client.get("/help").get_data(as_text=True)
    for example in ("-serviços", "NOT", "&lt;NAME2_PERSON&gt;", "&lt;PERSON&gt;", "contrat*"):
        assert example in html


def test_a_misplaced_operator_is_read_before_the_parser():
    with pytest.raises(QueryError):
        read_query("a OR")
    assert read_query("<PERSON> contrato").categories == ["PERSON"]


def test_paranon_serve_answers_a_long_url_with_its_own_414_page(portal_out):  # noqa: F811
    import socket
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "paranon.cli", "serve", str(portal_out), "--port", str(port),
                             "--workers", "1"], stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/stats").read()
                break
            except OSError:
                time.sleep(0.2)
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/?q=" + "x" * 5000)
        html = err.value.read().decode("utf-8")
        assert err.value.code == 414 and "too long" in html and '<header><a class="brand"' in html
    finally:
        proc.terminate()
        proc.wait(timeout=30)


NEW_PAGES = ["/", "/help", "/pair/doc-0001:3", "/pair/doc-0002:5", "/?q=contrato&view=kwic&sort=left",
             "/?q=%3CPERSON%3E&view=kwic", "/?q=*&doc=doc-0001", "/download?format=pharaoh",
             "/download?format=tsv&q=*&doc=doc-0001", "/api/stats", "/nope"]


def test_no_original_in_the_new_pages_and_downloads(client):
    from .test_pipeline import gold_strings

    secrets = [s.lower() for s in gold_strings()]
    assert secrets
    for url in NEW_PAGES:
        body = client.get(url).get_data(as_text=True).lower()
        assert not [s for s in secrets if s in body], url
