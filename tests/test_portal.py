"""The search portal through Flask's test client: every route, every error, and a leak scan."""

from __future__ import annotations

import json

import pytest
from paranon.anonymize.keystore import originals


def indexed_with(sample_out, tmp_path_factory, backend: str):
    """The sample output with its index built by ``backend`` (itself when it already is)."""
    import shutil

    from paranon.search_portal.backends import backend_of
    from paranon.search_portal.indexer import build_index

    if backend_of((sample_out / "index").resolve()) == backend:
        return sample_out
    out = tmp_path_factory.mktemp(f"sample-{backend}") / "out"
    shutil.copytree(sample_out, out, symlinks=True)
    build_index(out, backend=backend)
    return out


@pytest.fixture(scope="session", params=["whoosh", "tantivy"])
def portal_out(request, sample_out, tmp_path_factory):
    """The sample output indexed by each backend: every portal test runs on both."""
    return indexed_with(sample_out, tmp_path_factory, request.param)


@pytest.fixture()
def app(portal_out):
    from paranon.search_portal.app import create_app

    return create_app({"OUTDIR": str(portal_out), "TESTING": True})


def test_search_page_highlights_hit_and_aligned_translation(client):
    r = client.get("/?q=pagamento&lang=pt")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "<mark>pagamento</mark>" in html.lower() or "<mark>Pagamento</mark>" in html
    assert 'class="tgt"' in html and "<mark>" in html.split('class="tgt"')[1]


def test_api_search_shape_and_translations(client):
    r = client.get("/api/search?q=contas&lang=pt&per_page=5")
    data = r.get_json()
    assert set(data) >= {"total", "took_ms", "hits", "translations"}
    assert data["total"] > 0 and len(data["hits"]) <= 5
    hit = data["hits"][0]
    assert set(hit) >= {"id", "doc", "src", "tgt", "src_hl", "tgt_hl", "categories"}
    s, e = hit["src_hl"][0]
    assert hit["src"][s:e].lower().startswith("conta")
    assert data["translations"] and data["translations"][0]["count"] >= 1


INFLECTED = [  # query, side, a form it must find (and highlight) though the query does not spell it
    ("conta", "pt", "contas"),
    ("documento", "pt", "documentos"),
    ('"conta do exercício"', "pt", "contas do exercício"),  # a phrase of inflected words
    ("account", "en", "accounts"),
    ('"approved the account"', "en", "approved the accounts"),
    ("notificacoes", "pt", "notificações"),  # accent-insensitive
]


@pytest.mark.parametrize("q,lang,form", INFLECTED)
def test_stemming_finds_inflected_forms(client, q, lang, form):
    data = client.get("/api/search", query_string={"q": q, "lang": lang, "per_page": 100}).get_json()
    side = "src" if lang == "pt" else "tgt"
    found = [h for h in data["hits"] if form in h[side].lower()]
    assert found, f"{q!r} did not find {form!r}"
    first = form.split()[0]
    assert any(h[side][a:b].lower() == first for h in found for a, b in h[f"{side}_hl"])


EXACT_FORMS = [  # exact-form query, side, what every hit must contain as typed, how many hits (None: some)
    ("CONTA", "pt", ["CONTA"], 24),
    ("contas", "pt", ["contas"], None),
    ("accounts", "en", ["accounts"], None),
    ('"a CONTA"', "pt", ["a CONTA"], 12),
    ("CONT*", "pt", ["CONT"], None),
    ("CONTA NOT debitar", "pt", ["CONTA"], 12),
    ("conta", "pt", [], 0),          # only ever written CONTA in the sample
    ("notificacoes", "pt", [], 0),   # the accent is part of the form
]


@pytest.mark.parametrize("q,lang,contains,total", EXACT_FORMS)
def test_exact_form_search_matches_the_form_as_typed(client, q, lang, contains, total):
    data = client.get("/api/search", query_string={"q": q, "lang": lang, "exact": 1, "per_page": 100}).get_json()
    side = "src" if lang == "pt" else "tgt"
    if total is None:
        assert data["total"] > 0
    else:
        assert data["total"] == total
    for h in data["hits"]:
        assert all(c in h[side] for c in contains)
        assert "NOT" not in q or "debitar" not in h[side]
        words = " ".join(contains).split()
        assert h[f"{side}_hl"]
        for a, b in h[f"{side}_hl"]:  # only the words of the query, as typed, are highlighted
            assert any(h[side][a:b] == w or q.endswith("*") and h[side][a:b].startswith(w) for w in words)


def test_exact_form_search_counts_as_many_as_the_folded_search_finds_as_typed(client):
    folded = client.get("/api/search", query_string={"q": "conta", "lang": "pt", "per_page": 100,
                                                     "distinct": 0}).get_json()
    as_typed = [h for h in folded["hits"] if "CONTA" in h["src"].split()]
    exact = client.get("/api/search", query_string={"q": "CONTA", "lang": "pt", "exact": 1}).get_json()
    assert exact["total"] == len(as_typed) > 0


def test_translation_filter_and_category_filter(client):
    data = client.get("/api/search?q=conta&lang=pt").get_json()
    t = data["translations"][0]["text"]
    sub = client.get("/api/search", query_string={"q": "conta", "lang": "pt", "translation": t}).get_json()
    assert 0 < sub["total"] <= data["total"]
    per = client.get("/api/search?q=<NAME_PERSON>").get_json()
    assert per["total"] > 0 and all("PERSON" in h["categories"] for h in per["hits"])


@pytest.mark.parametrize("q", ['"unbalanced', "AND", "x" * 3000, "", "OR NOT"])  # a longer URL is a 414
def test_malformed_queries_are_400_never_500(client, q):
    r = client.get("/api/search", query_string={"q": q})
    assert r.status_code == 400 and "error" in r.get_json()
    page = client.get("/", query_string={"q": q or " "})
    assert page.status_code in (200, 400)


def test_per_page_is_capped_and_unknown_ids_404(client):
    assert len(client.get("/api/search?q=a*&per_page=100000").get_json()["hits"]) <= 100
    assert client.get("/api/pairs/nope").status_code == 404
    assert client.get("/pair/nope").status_code == 404


def test_pages_render(client):
    for url in ("/", "/corpus", "/?q=conta&view=kwic&sort=left", "/api/stats", "/api/openapi.json"):
        assert client.get(url).status_code == 200, url
    pair_id = client.get("/api/search?q=conta").get_json()["hits"][0]["id"]
    assert client.get(f"/api/pairs/{pair_id}").status_code == 200


@pytest.mark.parametrize("fmt", ["tmx", "moses", "tsv", "jsonl"])
def test_downloads(client, fmt):
    r = client.get(f"/api/download?format={fmt}&q=conta")
    assert r.status_code == 200 and len(r.data) > 100
    assert client.get("/download?format=docx").status_code == 400


def test_no_original_in_index_pages_or_downloads(client, portal_out):
    from .test_pipeline import gold_strings

    secrets = [s.lower() for s in gold_strings()]
    assert originals(portal_out / "keys.sqlite")
    blobs = [p.read_bytes().decode("utf-8", "ignore").lower() for p in (portal_out / "index").resolve().rglob("*") if p.is_file()]
    for url in ("/?q=contrato", "/?q=conta&view=kwic", "/corpus", "/api/search?q=a*&per_page=100", "/api/stats"):
        blobs.append(client.get(url).get_data(as_text=True).lower())
    for fmt in ("tmx", "moses", "tsv", "jsonl"):
        data = client.get(f"/download?format={fmt}").data
        if fmt == "moses":
            import io
            import zipfile

            data = b"".join(zipfile.ZipFile(io.BytesIO(data)).read(n) for n in zipfile.ZipFile(io.BytesIO(data)).namelist())
        blobs.append(data.decode("utf-8").lower())
        blobs.append(json.dumps(blobs[-1]))
    for s in secrets:
        assert not any(s in b for b in blobs), s


def test_a_hit_found_only_through_the_stem_is_highlighted(client):
    """``conta`` finds ``contas`` through the stemmed field; the word must still be highlighted."""
    res = client.get("/api/search?q=conta&lang=pt&per_page=100").get_json()
    stem_only = [h for h in res["hits"] if "conta " not in h["src"].lower() and "contas" in h["src"].lower()]
    assert stem_only, "the sample has 'contas' without 'conta'"
    for h in stem_only:
        assert h["src_hl"], h["src"]
        assert any(h["src"][a:b].lower().startswith("conta") for a, b in h["src_hl"])


def test_a_repeated_search_is_remembered_until_the_index_is_rebuilt(portal_out, tmp_path):
    import shutil

    from paranon.search_portal.backends import backend_of
    from paranon.search_portal.indexer import build_index
    from paranon.search_portal.search import Searcher

    out = tmp_path / "out"
    shutil.copytree(portal_out, out, symlinks=True)
    s = Searcher(out, cache_size=2)
    first = s.search("contas", lang="pt")
    again = s.search("contas", lang="pt", page=2, per_page=5)
    assert len(s._cache) == 1 and again["total"] == first["total"]  # the next page came from the cache
    assert [h["id"] for h in again["hits"]] == [h["id"] for h in first["hits"]][5:10]
    s.search("banco", lang="pt")
    s.search("prazo", lang="pt")
    assert len(s._cache) == 2  # least recently used dropped
    build_index(out, backend=backend_of(out / "index"))
    rebuilt = s.search("contas", lang="pt")
    assert rebuilt["total"] == first["total"] and len(s._cache) == 2
    assert Searcher(out, cache_size=0).search("contas", lang="pt")["total"] == first["total"]


def test_paranon_serve_answers_from_several_processes(portal_out):
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "paranon.cli", "serve", str(portal_out), "--port", str(port),
                             "--workers", "2"], stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/search?q=contas&lang=pt").read()
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise AssertionError(proc.stderr.read().decode() if proc.poll() is not None else "server did not answer")
        assert json.loads(body)["total"] > 0
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# -- the work budget, errors and headers ---------------------------------------
WORST = " OR ".join(f"*{a}*{b}*" for a, b in zip(("aeiou" * 8)[:36], "rstnlrst" * 5, strict=False))  # 36 (the issue's)
OVER_BUDGET = [  # query, budget (fields of budget.Budget), what the message must say
    (WORST, {}, "at most 32"),
    ("a* b* c* d* e*", {}, "use fewer wildcards"),
    ("conta~ banco~ prazo~ taxa~ fatura~", {}, "use fewer wildcards"),  # fuzzy words expand like wildcards
    ("a* b? conta~ d* e?", {}, "use fewer wildcards"),
    (" ".join(["contas"] * 33), {}, "search for fewer words"),
    ("x" * 501, {}, "shorten it"),
    ("a*", {"max_expansion": 5}, "add letters to it"),
    ("*o*", {"max_expansion": 5}, "add letters to it"),
    ("conta* banc* *mento", {"max_expansion": 6}, "add letters to it"),  # the words of all wildcards add up
    ("contas", {"time_limit_s": 0}, "took longer than 0 s"),
    ('"conta do exercício"', {"time_limit_s": 0}, "took longer than"),
]


@pytest.mark.parametrize("q,budget,says", OVER_BUDGET)
def test_a_search_over_the_work_budget_is_400_saying_what_to_change(portal_out, q, budget, says):
    from paranon.search_portal.app import create_app

    client = create_app({"OUTDIR": str(portal_out), "TESTING": True, "SEARCH_CACHE": 0, "BUDGET": budget}).test_client()
    r = client.get("/api/search", query_string={"q": q})
    assert r.status_code == 400 and says in r.get_json()["error"], r.get_json()
    page = client.get("/", query_string={"q": q})
    assert page.status_code == 400 and says in page.get_data(as_text=True)


WITHIN_BUDGET = ["comiss*", "pag* AND conta*", "contrat?", '"conta do exercício"', "conta NOT banco", "*mento"]


@pytest.mark.parametrize("q", WITHIN_BUDGET)
def test_searches_within_the_budget_answer(client, q):
    r = client.get("/api/search", query_string={"q": q})
    assert r.status_code == 200 and r.get_json()["total"] > 0


def test_an_unknown_budget_key_names_the_key(portal_out):
    from paranon.search_portal.app import create_app
    from paranon.search_portal.budget import BudgetError

    with pytest.raises(BudgetError, match="max_wildcard'"):
        create_app({"OUTDIR": str(portal_out), "BUDGET": {"max_wildcard": 3}})


@pytest.mark.parametrize("q", ["rec:conta", "tokens:x", "src_exact:CONTA", "id:[a TO z]", "(conta", "conta)"])
def test_field_names_and_parser_errors_never_show_the_schema(client, q):
    r = client.get("/api/search", query_string={"q": q})
    text = r.get_data(as_text=True)
    assert r.status_code in (200, 400)
    for word in ("STORED", "format", "schema", "Traceback", "tokens=", "rec="):
        assert word not in text


@pytest.mark.parametrize("url", ["/", "/?q=contas", "/?q=%22open", "/corpus", "/pair/nope", "/api/search?q=contas",
                                 "/api/search?q=%22open", "/api/stats", "/api/openapi.json", "/download?format=tsv",
                                 "/download?format=docx", "/static/style.css"])
def test_every_response_has_the_security_headers(client, url):
    r = client.get(url)
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "unsafe-inline" not in csp and "script-src" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("url", ["/", "/?q=contas", "/?q=conta&view=kwic", "/corpus", "/pair/nope"])
def test_pages_have_no_inline_script_or_style(client, url):
    html = client.get(url).get_data(as_text=True)
    assert "<script" not in html and "style=" not in html and "<style" not in html


@pytest.mark.parametrize("fmt", ["tmx", "moses", "tsv", "jsonl"])
def test_downloads_are_streamed_as_the_records_are_read(app, monkeypatch, fmt):
    s = app.extensions["paranon_searcher"]
    total = s.stats()["pairs"]
    read = []
    original = s.all_records

    def counted(*args, **kwargs):
        for rec in original(*args, **kwargs):
            read.append(rec["id"])
            yield rec

    monkeypatch.setattr(s, "all_records", counted)
    r = app.test_client().get(f"/download?format={fmt}", buffered=False)
    chunks = iter(r.response)
    first = next(chunks)
    assert first and len(read) < total / 10  # the first bytes leave before a tenth of the corpus was read
    body = first + b"".join(chunks)
    r.close()
    if fmt == "moses":
        import io
        import zipfile

        members = zipfile.ZipFile(io.BytesIO(body))
        assert [len(members.read(n).decode("utf-8").splitlines()) for n in members.namelist()] == [total] * 3
    elif fmt in ("tsv", "jsonl"):
        assert len(body.decode("utf-8").splitlines()) == total + (fmt == "tsv")


def test_stats_come_from_the_index_not_from_corpus_jsonl(portal_out, tmp_path):
    import shutil

    from paranon.search_portal.app import create_app

    from paranon.text import tokenize

    out = tmp_path / "out"
    shutil.copytree(portal_out, out, symlinks=True)
    recs = [json.loads(line) for line in (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    (out / "corpus.jsonl").rename(out / "elsewhere.jsonl")  # the page must not need it
    stats = create_app({"OUTDIR": str(out), "TESTING": True}).test_client().get("/api/stats").get_json()
    assert stats["pairs"] == len(recs)
    assert stats["tokens"] == {side: sum(len(tokenize(r[side])) for r in recs) for side in ("src", "tgt")}
    assert list(stats["documents"]) == list(dict.fromkeys(r["doc"] for r in recs))  # corpus order
    assert sum(stats["documents"].values()) == len(recs)
    assert stats["mentions"] == dict(__import__("collections").Counter(
        m["category"] for r in recs for m in r["src_mentions"]).most_common())


GATED = [  # budget, whether a search must wait for the gate another server process holds
    ({"heavy_cpu_s": 0, "time_limit_s": 0.2}, True),  # every search counts as long: it waits, then gives up
    ({"heavy_cpu_s": 10}, False),  # a short search never needs the gate
]


@pytest.mark.parametrize("budget,waits", GATED)
def test_long_searches_take_turns_through_the_server_wide_gate(portal_out, budget, waits):
    from paranon.search_portal.app import create_app
    from paranon.search_portal.budget import Gate

    client = create_app({"OUTDIR": str(portal_out), "TESTING": True, "SEARCH_CACHE": 0, "BUDGET": budget}).test_client()
    held = Gate(str(portal_out.resolve()))  # as another server process would hold it
    assert held.acquire(1)
    try:
        r = client.get("/api/search?q=contas")
        assert (r.status_code == 400 and "busy with other long searches" in r.get_json()["error"]) == waits
    finally:
        held.release()
    assert client.get("/api/search?q=contas").status_code == 200  # its turn came


@pytest.mark.parametrize("q", ["pagamento", "contrato", "empresa"])
def test_the_panel_shows_each_translations_share_of_all_hits_and_the_unaligned_ones(client, q):
    api = client.get(f"/api/search?q={q}&lang=pt").get_json()
    page = client.get(f"/?q={q}&lang=pt").get_data(as_text=True)
    panel = page.split('<aside id="translations">')[1].split("</aside>")[0]
    for t in api["translations"]:
        assert f"{t['count']} · {round(100 * t['share'])}%" in panel
    na = api["translations_not_aligned"]
    assert ("not aligned" in panel) == bool(na["count"])
    assert sum(t["count"] for t in api["translations"]) + na["count"] <= api["translations_hits"]
