"""The data behind ``paranon review``/``apply``: decisions in review.yaml, the entity table, candidate misses,
and the private app's token (the whole session in a browser is tests/test_review_browser.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys

import pytest
import yaml
from paranon.anonymize.keystore import KeyStore

from paranon.config import load_config
from paranon.review import Decisions, candidate_misses, entity_table, mentions_of

NONE = {"allow": [], "allow_in_documents": {}, "deny": {}, "same_entity": [], "different_entities": []}
LOBO, NICK = ["Ana Lobo", "A. Lobo"], ["Tita"]


@pytest.mark.parametrize("steps, expected", [
    ([("not_entity", "Tribunal", None)], {"allow": ["Tribunal"]}),
    ([("not_entity", "Costa", "DOC-1"), ("not_entity", "Costa", "DOC-1")], {"allow_in_documents": {"DOC-1": ["Costa"]}}),
    ([("mask", "Bento Queiroga", "PERSON")], {"deny": {"PERSON": ["Bento Queiroga"]}}),
    # a new category replaces the old one
    ([("mask", "Lusomar", "PERSON"), ("mask", "Lusomar", "ORGANIZATION_COMPANY")],
     {"deny": {"ORGANIZATION_COMPANY": ["Lusomar"]}}),
    ([("mask", "PX45580-1433", "NAMEID"), ("undo", "PX45580-1433", ("deny", "NAMEID"))], {}),
    ([("not_entity", "Costa", "DOC-1"), ("undo", "Costa", ("allow_in_documents", "DOC-1"))], {}),
    # merge: one group of both entities' forms; a merge with a form already grouped grows that group
    ([("merge", LOBO, NICK)], {"same_entity": [["Ana Lobo", "A. Lobo", "Tita"]]}),
    ([("merge", LOBO, NICK), ("merge", ["tita"], ["Lobo"])], {"same_entity": [["tita", "Lobo", "Ana Lobo", "A. Lobo"]]}),  # forms compared like allow entries
    # split: the chosen form apart from each of the others, and out of the group it was merged into
    ([("split", NICK, LOBO)], {"different_entities": [["Ana Lobo", "Tita"], ["A. Lobo", "Tita"]]}),
    ([("merge", LOBO, NICK), ("split", NICK, LOBO)],
     {"same_entity": [LOBO], "different_entities": [["Ana Lobo", "Tita"], ["A. Lobo", "Tita"]]}),
    # a merge drops the split it contradicts
    ([("split", NICK, LOBO), ("merge", ["A. Lobo"], NICK)],
     {"same_entity": [["A. Lobo", "Tita"]], "different_entities": [["Ana Lobo", "Tita"]]}),
    ([("merge", LOBO, NICK), ("undo", '["Ana Lobo", "A. Lobo", "Tita"]', ("same_entity", ""))], {}),
    ([("split", NICK, ["Ana Lobo"]), ("undo", '["Ana Lobo", "Tita"]', ("different_entities", ""))], {}),
    ([("split", NICK, ["Ana Lobo"]), ("undo", "Ana Lobo | Tita", ("different_entities", ""))],
     {"different_entities": [["Ana Lobo", "Tita"]]}),  # an undo names the decision as the page wrote it
])
def test_decisions_are_a_config_file_with_undo(tmp_path, steps, expected):
    for action, text, arg in steps:
        d = Decisions.load(tmp_path)
        if action == "not_entity":
            d.not_entity(text, arg)
        elif action == "mask":
            d.mask(text, arg)
        elif action in ("merge", "split"):
            getattr(d, action)(text, arg)
        else:
            d.undo(arg[0], text, arg[1])
        d.save(tmp_path)
    expected = {**NONE, **expected}
    path = tmp_path / "review.yaml"
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["anonymize"] == expected
    assert path.stat().st_mode & 0o077 == 0
    assert path.read_text(encoding="utf-8").startswith("# Decisions made in `paranon review`")
    cfg = load_config(path)  # reusable as --config
    assert {k: cfg["anonymize"][k] for k in NONE} == expected
    assert Decisions.load(tmp_path).entries() == d.entries()  # and read back the same
    for forms in expected["same_entity"] + expected["different_entities"]:  # a merge or a split: one line
        assert f"  - [{', '.join(forms)}]\n" in path.read_text(encoding="utf-8")


def test_decisions_add_to_the_run_settings():
    cfg = load_config()
    cfg["anonymize"]["allow"] = ["IVA"]
    cfg["anonymize"]["deny"] = {"PERSON": ["Ana"]}
    d = Decisions(allow=["Tribunal"], allow_in_documents={"D": ["Costa"]}, deny={"PERSON": ["Rui"], "NAMEID": ["X1"]})
    a = d.overlay(cfg)["anonymize"]
    assert a["allow"] == ["IVA", "Tribunal"] and a["allow_in_documents"] == {"D": ["Costa"]}
    assert a["deny"] == {"PERSON": ["Ana", "Rui"], "NAMEID": ["X1"]}
    cfg["anonymize"]["same_entity"] = [["Rui", "R. Sá"]]
    a = Decisions(same_entity=[["Rui", "R. Sá"], ["Ana", "Aninhas"]], different_entities=[["Ana", "Ana Sá"]]).overlay(cfg)
    assert a["anonymize"]["same_entity"] == [["Rui", "R. Sá"], ["Ana", "Aninhas"]]
    assert a["anonymize"]["different_entities"] == [["Ana", "Ana Sá"]]


def test_the_entity_table_puts_risky_entities_first(sample_out):
    table = entity_table(sample_out)
    assert len(table) > 100
    keys = [(not e["fallback"], not e["single_word"], not e["target_only"], not e["untransferred"]) for e in table]
    assert keys == sorted(keys)
    e = next(e for e in table if e["forms"]["src"] and e["forms"]["tgt"])
    assert e["mentions"] == sum(e["forms"]["src"].values()) + sum(e["forms"]["tgt"].values())
    ms = mentions_of(sample_out, e["scope"], e["number"])
    assert len(ms) == e["mentions"] and all(m["original"] in e["forms"]["src"] | e["forms"]["tgt"] for m in ms)
    assert all("<NAME" not in m["original"] for m in ms)


def corpus_with(tmp_path, texts: list[str]):
    with open(tmp_path / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for k, t in enumerate(texts):
            fh.write(json.dumps({"id": f"d:{k}", "doc": "d", "src": t, "tgt": "x", "src_lang": "pt",
                                 "tgt_lang": "en"}) + "\n")
    return tmp_path


@pytest.mark.parametrize("text, listed, kind", [
    # capitalized words no word list knows, as a name
    ("Assinado por Bento Queiroga em Lisboa.", "Bento Queiroga", "name"),
    ("ASSINADO POR BENTO QUEIROGA.", "BENTO QUEIROGA", "name"),
    ("Vem a Sra. Maria da Conceição Taveira.", "Maria da Conceição Taveira", "name"),
    # identifier-shaped numbers
    ("O contribuinte 506123456 paga.", "506123456", "identifier"),
    ("Cartão PX45580-1433 emitido.", "PX45580-1433", "identifier"),
    ("Processo 68676/57 arquivado.", "68676/57", "identifier"),
    # ordinary words, places, amounts and short numbers are not listed
    ("O Contrato de Prestação de Serviços.", None, None),
    ("Em Lisboa, no Porto e em Coimbra.", None, None),
    ("Paga 1.250.000,00 euros em 12 prestações de 000.00.", None, None),
    ("The Bank shall pay the Price List.", None, None),
    ("Nos termos do artigo 47 e do n.º 3.", None, None),
    ("Sr. <NAME1_PERSON> assina.", None, None),
])
def test_candidate_misses_look_like_names_or_identifiers(tmp_path, text, listed, kind):
    got = {c["text"]: c["kind"] for c in candidate_misses(corpus_with(tmp_path, [text]))}
    if listed is None:
        assert got == {}
    else:
        assert got.get(listed) == kind, got


def test_the_allow_list_is_not_a_miss(tmp_path):
    out = corpus_with(tmp_path, ["Pago o IVA e o IRS ao Bento Queiroga."])
    assert {c["text"] for c in candidate_misses(out, {"iva", "irs"})} == {"Bento Queiroga"}


@pytest.fixture()
def review_client(sample_out, tmp_path):
    from paranon.review_app import create_review_app

    out = tmp_path / "out"
    shutil.copytree(sample_out, out, symlinks=True)
    app = create_review_app(out, "secret-token", load_config())
    return out, app.test_client()


@pytest.mark.parametrize("path", ["/", "/misses", "/decisions", "/entity?scope=x&number=1"])
def test_no_page_without_the_token(review_client, path):
    _, client = review_client
    assert client.get(path).status_code == 403
    assert client.get(path + ("&" if "?" in path else "?") + "token=wrong").status_code == 403
    assert client.post("/decide", data={"action": "not_entity", "text": "x"}).status_code == 403


def test_the_token_sets_a_strict_cookie_and_decisions_are_recorded(review_client):
    out, client = review_client
    r = client.get("/?token=secret-token")
    assert r.status_code == 302 and "SameSite=Strict" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    assert client.get("/").status_code == 200
    assert client.post("/decide", data={"action": "mask", "text": "ABC123456", "category": "NOPE"}).status_code == 400
    r = client.post("/decide", data={"action": "mask", "text": "ABC123456", "category": "NAMEID",
                                     "next": "//evil.example/"})
    assert r.status_code == 302 and r.headers["Location"] == "/"
    assert Decisions.load(out).deny == {"NAMEID": ["ABC123456"]}
    assert "ABC123456" in client.get("/decisions").get_data(as_text=True)


def test_the_page_reads_the_run_again_after_it_changed(review_client):
    """A ``paranon apply`` while the page is open: a reload shows the new entity table, not the one read first."""
    out, client = review_client
    client.get("/?token=secret-token")
    before = client.get("/").get_data(as_text=True)
    db = sqlite3.connect(out / "keys.sqlite")
    with db:
        n = db.execute("SELECT COUNT(DISTINCT scope || '/' || number) FROM mentions").fetchone()[0]
        scope, number = db.execute("SELECT scope, number FROM mentions LIMIT 1").fetchone()
        db.execute("DELETE FROM mentions WHERE scope = ? AND number = ?", (scope, number))
    db.close()
    assert f"{n} entities" in before
    assert f"{n - 1} entities" in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("prepare, says", [
    (lambda out: None, "review.yaml: no decisions to apply"),
    (lambda out: ((out / "review.yaml").write_text("anonymize: {allow: [X]}\n"),
                  KeyStore.set_files(out / "keys.sqlite", {}, out / "gone.tmx")),
     "gone.tmx: the run's input is not there"),
    (lambda out: (out / "review.yaml").write_text("anonymize:\n  allow: Lisboa\n"),
     "review.yaml:2: anonymize.allow: expected a list of strings"),
])
def test_apply_errors_are_one_line(tmp_path, prepare, says):
    prepare(tmp_path)
    r = subprocess.run([sys.executable, "-m", "paranon.cli", "apply", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr


def test_review_of_a_folder_that_is_not_a_run_is_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "paranon.cli", "review", str(tmp_path)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not found" in r.stderr


@pytest.mark.parametrize("query, check", [
    ("category=PERSON", lambda e: e["category"] == "PERSON"),
    ("category=ORGANIZATION_COMPANY", lambda e: e["label"] == "ORGANIZATION_COMPANY"),
    ("rule=nameid", lambda e: any(r.startswith("nameid:") for r in e["rules"])),
])
def test_the_entity_table_filters_by_category_and_rule(review_client, sample_out, query, check):
    _, client = review_client
    client.get("/?token=secret-token")
    page = client.get(f"/?{query}").get_data(as_text=True)
    wanted = [e for e in entity_table(sample_out) if check(e)]
    assert wanted and f"{len(wanted)} entities" in page
    assert page.count("<tr><td><a href=\"/entity?") == min(len(wanted), 100)


def test_names_are_not_crowded_out_by_numbers(tmp_path):
    texts = [f"Regulamento (UE) 2016/{k:03d} e o Sr. Bento Queiroga." for k in range(100, 130)]
    misses = candidate_misses(corpus_with(tmp_path, texts), limit=5)
    assert [c["kind"] for c in misses] == ["name"] + ["identifier"] * 5


@pytest.mark.parametrize("kind", ["name", "identifier"])
def test_the_misses_page_filters_by_kind(review_client, kind):
    _, client = review_client
    client.get("/?token=secret-token")
    page = client.get(f"/misses?kind={kind}").get_data(as_text=True)
    other = "identifier" if kind == "name" else "name"
    assert f"<td>{kind}</td>" in page and f"<td>{other}</td>" not in page


def _two_forms(table):
    """A PERSON entity with a one-word source form and a longer one, and another PERSON of its scope."""
    e = next(e for e in table if e["category"] == "PERSON" and any(len(f.split()) == 1 for f in e["forms"]["src"])
             and any(len(f.split()) > 1 for f in e["forms"]["src"]))
    other = next(x for x in table if x["scope"] == e["scope"] and x["category"] == "PERSON" and x is not e
                 and x["forms"]["src"])
    return e, other


def test_merge_and_split_are_recorded_by_their_forms_with_undo(review_client, sample_out):
    out, client = review_client
    client.get("/?token=secret-token")
    e, other = _two_forms(entity_table(sample_out))
    page = client.get(f"/entity?scope={e['scope']}&number={e['number']}").get_data(as_text=True)
    assert 'id="merge"' in page and f'value="{other["number"]}"' in page and 'id="split"' in page
    where = {"scope": e["scope"], "number": str(e["number"])}
    assert client.post("/decide", data={**where, "action": "merge", "other": "99999"}).status_code == 400
    client.post("/decide", data={**where, "action": "merge", "other": str(other["number"])})
    assert Decisions.load(out).same_entity == [[*e["forms"]["src"], *other["forms"]["src"]]]
    short = [f for f in e["forms"]["src"] if len(f.split()) == 1]
    rest = [f for f in e["forms"]["src"] if f not in short]
    assert client.post("/decide", data={**where, "action": "split", "form": list(e["forms"]["src"])}).status_code == 400
    client.post("/decide", data={**where, "action": "split", "form": short})
    d = Decisions.load(out)
    assert d.different_entities == [[r, s] for r in rest for s in short]
    assert all(s not in g for g in d.same_entity for s in short)
    page = client.get("/decisions").get_data(as_text=True)
    assert f"{rest[0]} | {short[0]}" in page and "different entities (split)" in page
    undo = next(x for x in d.entries() if x["kind"] == "different_entities")
    client.post("/decide", data={"action": "undo", "kind": undo["kind"], "where": "", "text": undo["value"]})
    assert len(Decisions.load(out).different_entities) == len(d.different_entities) - 1
