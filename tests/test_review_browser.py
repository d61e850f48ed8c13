"""A reviewer's session in a real browser (Debian's chromium driven by Playwright, never ``playwright install``):
``paranon review`` on a run of the sample, one entity rejected, one missed span masked (after an undo), a bare
surname split from its entity, ``paranon apply``, then the corpus files, the key store, the index and the audit
checked."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys

import pytest

from .test_browser import CHROMIUM

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt install chromium)")


@pytest.fixture()
def run_copy(sample_out, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(sample_out, out, symlinks=True)
    return out


@pytest.fixture()
def review(run_copy):
    proc = subprocess.Popen([sys.executable, "-m", "paranon.cli", "review", str(run_copy)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://127.0.0.1:" in line and "token=" in line, line + proc.stderr.read()
        yield line.split(" on ", 1)[1].strip()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def originals(out) -> list[tuple[str, str]]:
    db = sqlite3.connect(out / "keys.sqlite")
    try:
        return list(db.execute("SELECT DISTINCT original, category FROM mentions"))
    finally:
        db.close()


def hits(out, query: str) -> int:
    from paranon.search_portal.search import Searcher

    return Searcher(out, cache_size=0).search(query, "both")["total"]


def public_text(out) -> str:
    return "\n".join((out / name).read_text(encoding="utf-8") for name in ("corpus.pt", "corpus.en", "corpus.tsv"))


def numbers(out, scope: str) -> dict[str, set[tuple[str, str, int]]]:
    """Each source form of ``scope``: its mentions (unit, side, number), the target side's by its unit."""
    db = sqlite3.connect(out / "keys.sqlite")
    try:
        rows = list(db.execute("SELECT original, unit, side, number FROM mentions WHERE scope = ?", (scope,)))
    finally:
        db.close()
    got: dict[str, set[tuple[str, str, int]]] = {}
    for original, unit, side, number in rows:
        got.setdefault(original, set()).add((unit, side, number))
    return got


def split_target(out) -> tuple[dict, list[str], list[str]]:
    """A PERSON entity with a bare surname beside full names: its surname(s) and its other forms."""
    from paranon.review import entity_table

    e = next(e for e in entity_table(out) if e["category"] == "PERSON"
             and any(len(f.split()) == 1 for f in e["forms"]["src"]) and any(len(f.split()) > 1 for f in e["forms"]["src"]))
    short = [f for f in e["forms"]["src"] if len(f.split()) == 1]
    return e, short, [f for f in e["forms"]["src"] if f not in short]


def test_reject_an_entity_mask_a_missed_span_split_and_apply(run_copy, review, sample_out):
    sync_api = pytest.importorskip("playwright.sync_api")
    base = review.split("?")[0]
    entity, short, rest = split_target(run_copy)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        # without the token there is nothing to see
        assert page.goto(base).status == 403
        page.goto(review)
        assert page.locator("#entities tbody tr").count() > 50
        # the organisations only, then the first one's page
        page.select_option("select[name=category]", "ORGANIZATION_COMPANY")
        page.click("text=filter")
        assert {t.strip() for t in page.locator("#entities tbody td:nth-child(3)").all_inner_texts()} == \
            {"ORGANIZATION_COMPANY"}
        page.locator("#entities tbody tr a").first.click()
        assert page.locator("td.ctx mark").count() >= 1  # its mentions in context
        rejected = page.locator(".actions").first.get_attribute("data-form")
        page.locator(".actions").first.locator("text=not an entity (everywhere)").click()
        # a missed identifier masked, undone, masked again
        page.click("text=Candidate misses")
        row = page.locator("#misses tbody tr", has=page.locator("td:nth-child(2)", has_text="identifier")).first
        missed = row.get_attribute("data-text")
        row.locator("text=mask this span").click()
        page.click("text=Decisions")
        assert page.locator("#decisions tbody tr").count() == 2
        page.locator("#decisions tbody tr", has_text=missed).locator("text=undo").click()
        assert page.locator("#decisions tbody tr").count() == 1
        page.click("text=Candidate misses")
        page.locator(f"#misses tbody tr[data-text='{missed}']").locator("text=mask this span").click()
        page.click("text=Decisions")
        assert page.locator("#decisions tbody tr").count() == 2
        # a bare surname split from the full names of its entity
        page.goto(f"{base}entity?scope={entity['scope']}&number={entity['number']}")
        for f in short:
            page.locator(f"#split input[value='{f}']").check()
        page.locator("#split button").click()
        page.click("text=Decisions")
        assert page.locator("#decisions tbody tr", has_text="different entities (split)").count() == \
            len(short) * len(rest)
        browser.close()

    decisions = (run_copy / "review.yaml").read_text(encoding="utf-8")
    assert rejected in decisions and missed in decisions
    assert (run_copy / "review.yaml").stat().st_mode & 0o077 == 0
    assert missed in public_text(run_copy) and rejected not in public_text(run_copy)

    before = {q: hits(run_copy, q) for q in (f'"{missed}"', rejected.split()[0])}
    assert before[f'"{missed}"'] > 0
    r = subprocess.run([sys.executable, "-m", "paranon.cli", "apply", str(run_copy), "--quiet"], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    # the index: the masked span found no more, the rejected entity's words found where they are now visible
    assert hits(run_copy, f'"{missed}"') == 0 and hits(run_copy, rejected.split()[0]) > before[rejected.split()[0]]
    assert "audit: clean" in r.stderr
    text = public_text(run_copy)
    assert missed not in text and (missed, "NAMEID") in originals(run_copy)
    assert rejected in text and rejected not in {o for o, _ in originals(run_copy)}
    report = json.loads((run_copy / "report.json").read_text(encoding="utf-8"))
    assert report["audit"]["clean"]
    assert 0 < report["applied"]["documents_recognized"], "recomputed from the run's checkpoint"
    audit = subprocess.run([sys.executable, "-m", "paranon.cli", "audit", str(run_copy)], capture_output=True, text=True)
    assert audit.returncode == 0 and "CLEAN" in audit.stdout
    # the split: the surname has a number of its own in its document, both sides, in the corpus files too
    got = numbers(run_copy, entity["scope"])
    surname = {n for f in short for _, side, n in got.get(f, ()) if side == "src"}
    full = {n for f in rest for _, side, n in got.get(f, ()) if side == "src"}
    assert surname and full and not surname & full
    assert {n for f in short for _, side, n in numbers(sample_out, entity["scope"]).get(f, ())
            if side == "src"} <= full, "one entity before the split"
    units = {u for f in short for u, side, _ in got[f] if side == "src"}
    records = [json.loads(line) for line in open(run_copy / "corpus.jsonl", encoding="utf-8")]
    for r in records:
        if r["id"] in units:
            assert any(f"<NAME{n}_PERSON>" in r["src"] for n in surname)
            assert all(f"<NAME{n}_PERSON>" not in r["tgt"] or f"<NAME{n}_PERSON>" in r["src"] for n in surname | full)
