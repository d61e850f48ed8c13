"""Downloads are the screen: each format, asked from the page's own links under each filter, holds as many
pairs as the page counts; the Pharaoh links fit the white-space words of the Moses files they ship with."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile

import pytest
from paranon.align.pharaoh import moses_links, whitespace_links, word_of_token
from paranon.corpora.model import parse_pharaoh, pharaoh

from paranon.text import tokenize

from .test_portal import app, portal_out  # noqa: F401  (the sample indexed by each backend)

DL_LINK = re.compile(r'<a class="dl" href="([^"]+)">(\w+)</a>')
TOTAL = re.compile(r'<strong id="total">(\d+)</strong>')


def first_doc(client) -> str:
    return next(iter(client.get("/api/stats").get_json()["documents"]))


def top_translation(client) -> str:
    return client.get("/api/search?q=conta&lang=pt").get_json()["translations"][0]["text"]


FILTERS = [  # the page's filters, as a translator sets them (callables read the sample's own values)
    {"q": "conta", "lang": "pt"},
    {"q": "CONTA", "lang": "pt", "exact": "1"},
    {"q": "CONTA", "lang": "pt", "case": "1"},
    {"q": "account", "lang": "en"},
    {"q": "conta", "lang": "pt", "translation": top_translation},
    {"q": "*", "doc": first_doc},
    {"q": "*", "category": "PERSON"},
    {"q": "conta -débito", "lang": "pt"},
]


def count(fmt: str, body: bytes) -> int | list[int]:
    """Pairs in a downloaded file (per member for the Moses zip)."""
    if fmt == "moses":
        z = zipfile.ZipFile(io.BytesIO(body))
        return [len(z.read(n).decode("utf-8").split("\n")) - 1 for n in z.namelist()]
    text = body.decode("utf-8")
    if fmt == "tmx":
        return text.count("<tu>") + text.count("<tu ")
    return len(text.split("\n")) - 1 - (fmt == "tsv")


@pytest.mark.parametrize("filters", FILTERS, ids=lambda f: "&".join(f"{k}={v if isinstance(v, str) else k}"
                                                                    for k, v in f.items()))
def test_every_download_link_holds_the_pairs_the_page_counts(client, filters):
    args = {k: v(client) if callable(v) else v for k, v in filters.items()}
    page = client.get("/", query_string=args).get_data(as_text=True)
    total = int(TOTAL.search(page).group(1))
    assert total > 0, args
    links = {fmt: html.unescape(href) for href, fmt in DL_LINK.findall(page)}
    assert set(links) == {"tmx", "moses", "tsv", "jsonl", "pharaoh"}
    api = client.get("/api/search", query_string=args).get_json()["total"]
    assert api == total
    for fmt, href in links.items():
        r = client.get(href)
        assert r.status_code == 200, (fmt, href)
        got = count(fmt, r.data)
        assert got == ([total] * 3 if fmt == "moses" else total), (fmt, href)
        assert client.get(href.replace("/download", "/api/download")).data == r.data


def test_the_whole_corpus_downloads_as_the_corpus_page_counts(client):
    pairs = client.get("/api/stats").get_json()["pairs"]
    for fmt in ("tmx", "tsv", "jsonl", "pharaoh"):
        assert count(fmt, client.get(f"/download?format={fmt}").data) == pairs, fmt


def test_the_downloaded_tsv_has_the_header_of_corpus_tsv(client, portal_out):  # noqa: F811
    header = (portal_out / "corpus.tsv").read_text(encoding="utf-8").split("\n")[0]
    for url in ("/download?format=tsv", "/download?format=tsv&q=conta", "/download?format=tsv&q=zzzzqqq"):
        assert client.get(url).get_data(as_text=True).split("\n")[0] == header


def test_a_bad_format_or_query_is_400_naming_it(client):
    r = client.get("/download?format=docx")
    assert r.status_code == 400 and "pharaoh" in r.get_json()["error"]
    assert client.get("/download", query_string={"format": "tsv", "q": "conta AND"}).status_code == 400


def fits(src: str, tgt: str, line: str) -> bool:
    ns, nt = len(src.split()), len(tgt.split())
    return all(i < ns and j < nt for i, j in parse_pharaoh(line))


def test_the_run_ships_links_over_the_words_of_its_moses_files(portal_out):  # noqa: F811
    src = (portal_out / "corpus.pt").read_text(encoding="utf-8").split("\n")[:-1]
    tgt = (portal_out / "corpus.en").read_text(encoding="utf-8").split("\n")[:-1]
    links = (portal_out / "alignments.pharaoh").read_text(encoding="utf-8").split("\n")[:-1]
    recs = [json.loads(x) for x in (portal_out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(src) == len(tgt) == len(links) == len(recs)
    assert all(fits(s, t, a) for s, t, a in zip(src, tgt, links, strict=True))
    # the record's links moved onto words: a token link lands on the words holding the tokens
    assert links == [pharaoh(moses_links(r["src"], r["tgt"], parse_pharaoh(r["alignment"]))) for r in recs]
    assert sum(r["alignment"] != a for r, a in zip(recs, links, strict=True)) > 0
    assert sum(bool(a) for a in links) > len(links) / 2


def test_the_downloaded_moses_zip_links_fit_its_own_files(client):
    z = zipfile.ZipFile(io.BytesIO(client.get("/download?format=moses&q=conta").data))
    src, tgt, links = (z.read(n).decode("utf-8").split("\n")[:-1]
                       for n in ("corpus.pt", "corpus.en", "alignments.pharaoh"))
    assert links and all(fits(s, t, a) for s, t, a in zip(src, tgt, links, strict=True))
    assert client.get("/download?format=pharaoh&q=conta").get_data(as_text=True).split("\n")[:-1] == links


WORDS = [  # text, the white-space word of each paranon token
    ("o contrato, assinado.", [0, 1, 1, 2, 2]),
    ("pago a <NAME1_PERSON>: 30 €", [0, 1, 2, 2, 3, 4]),
    ("  dois   espaços\u00a0e\tum (...) tab", [0, 1, 2, 3, 4, 5]),
    ("art.º 5.º-A do D.L. n.º 3/99", None),  # checked against the rule below
    ("a\x1cb c", [0, 0, 1, 2]),  # white space to str.split, a token to the tokenizer: the words decide
    ("a\u200bb c", [0, 0, 0, 1]),  # a zero-width space is not white space to either
]


@pytest.mark.parametrize("text,words", WORDS)
def test_each_token_maps_to_the_white_space_word_that_holds_it(text, words):
    spans = tokenize(text)
    got = word_of_token(text, spans)
    if words is not None:
        assert got == words
    ws = text.split()
    assert len(got) == len(spans) and all(text[a:b] in ws[w] for (a, b), w in zip(spans, got, strict=True)
                                          if not text[a:b].isspace())


LINKS = [  # source, target, token links, white-space links
    ("o contrato, assinado.", "the contract, signed.", [(1, 1), (2, 2), (3, 3)], [(1, 1), (2, 2)]),
    ("pago a <NAME1_PERSON>.", "paid to <NAME1_PERSON>.", [(0, 0), (2, 2), (3, 3)], [(0, 0), (2, 2)]),
    ("taxa de juro", "interest rate", [(0, 1), (2, 0)], [(0, 1), (2, 0)]),
    ("a b", "c", [(0, 0), (5, 0), (1, 7)], [(0, 0)]),  # a link to a token that does not exist is dropped
]


@pytest.mark.parametrize("src,tgt,links,words", LINKS)
def test_token_links_become_links_of_the_words_holding_the_tokens(src, tgt, links, words):
    assert whitespace_links(src, tgt, links, tokenize(src), tokenize(tgt)) == words
    assert moses_links(src, tgt, links) == words
