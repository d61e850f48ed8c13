"""``report.html`` for a person (one screen on top, folded sections, nothing empty), ``report.json`` for scripts."""

from __future__ import annotations

import json
import re

import pytest

from paranon.report import FIGURE_WORDS, STEP_WORDS, write_report


def base_report(**changes) -> dict:
    r = {"input": "tm.tmx", "src_lang": "pt", "tgt_lang": "en", "aligner": "eflomal",
         "units": {"read": 3, "written": 3, "skipped": 0, "skipped_by_reason": {}, "skipped_examples": []},
         "mentions": {"src": {"PERSON": 2}, "tgt": {"PERSON": 2}}, "entities": 1, "entities_by_category": {"PERSON": 1},
         "rules": {"person|title:Sr.": 2}, "consistency_masks": {"src": 0, "tgt": 0},
         "transfer": {"steps": {"string": 2, "alignment": 0}, "guard_masks": 0, "target_only": 0, "untransferred": {},
                      "untransferred_units": []},
         "side_mismatch": {"units": 0, "first_units": []},
         "audit": {"clean": True, "leaked_originals": 0, "leaks": [], "also_public": [], "files_scanned": ["corpus.pt"],
                   "not_scanned": [], "originals": 1, "originals_too_short": 0, "seconds": 0.1}}
    for key, value in changes.items():
        target = r
        *path, last = key.split("__")
        for p in path:
            target = target[p]
        target[last] = value
    return r


RECS = [
    {"id": "d:1", "doc": "d", "src": "O Sr. <NAME1_PERSON> assina.", "tgt": "Mr Bento signs.",
     "src_mentions": [{"start": 6, "end": 20, "category": "PERSON", "entity": 1}], "tgt_mentions": []},
    {"id": "d:2", "doc": "d", "src": "<NAME1_PERSON> paga.", "tgt": "<NAME1_PERSON> pays <NAME2_NAMEID>.",
     "src_mentions": [{"start": 0, "end": 14, "category": "PERSON", "entity": 1}],
     "tgt_mentions": [{"start": 0, "end": 14, "category": "PERSON", "entity": 1},
                      {"start": 20, "end": 34, "category": "NAMEID", "entity": 2}]},
]
ENTITIES = [{"scope": "d", "number": 1, "category": "PERSON", "mentions": 2, "rules": {"person:title:Sr.": 2}}]


def render(tmp_path, report, entities=ENTITIES) -> str:
    with open(tmp_path / "corpus.jsonl", "w", encoding="utf-8") as fh:
        for rec in RECS:
            fh.write(json.dumps(rec) + "\n")
    write_report(tmp_path, report, entities)
    return (tmp_path / "report.html").read_text(encoding="utf-8")


def top_screen(page: str) -> str:
    return page.split("<details", 1)[0]


@pytest.mark.parametrize("report, shown, not_shown", [
    # a clean run: nothing to review, no empty sections
    (base_report(), ["Audit: clean", "Nothing stands out"], ["Skipped units", "not found on the target side",
                                                                "sides disagree", "<tbody></tbody>"]),
    (base_report(units__skipped=2, units__skipped_by_reason={"missing pt side": 2}),
     ["Skipped units (2)", "missing pt side", "2 units skipped"], ["Nothing stands out"]),
    (base_report(transfer__untransferred={"PERSON": 1},
                 transfer__untransferred_units=[{"id": "d:1", "category": "PERSON", "entity": 1}]),
     ["not found on the target side (1)", "<mark>&lt;NAME1_PERSON&gt;</mark>", "Mr Bento signs."], []),
    (base_report(side_mismatch={"units": 1, "first_units": [{"id": "d:2", "source_only": [], "target_only": [2]}]}),
     ["Units whose sides disagree (1)", "en only: #2", "<mark>&lt;NAME2_NAMEID&gt;</mark>"], ["pt only"]),
    (base_report(audit={"clean": False, "leaked_originals": 3, "also_public": [], "files_scanned": ["corpus.pt"],
                        "leaks": [{"category": "PERSON", "file": "corpus.en", "hits": 5, "originals": 3}]}),
     ["3 originals are visible in public files (5 hits)", "corpus.en", "paranon audit OUTDIR --show"], ["Audit: clean"]),
])
def test_the_page_shows_what_there_is_and_nothing_empty(tmp_path, report, shown, not_shown):
    page = render(tmp_path, report)
    for s in shown:
        assert s in page, s
    for s in not_shown:
        assert s not in page, s
    assert not re.search(r"<details[^>]*><summary>[^<]*</summary></details>", page)


@pytest.mark.parametrize("what", ["Audit:", "<th>pairs</th>", "read", "written", "skipped", "<th>entities</th>",
                                  "PERSON"])
def test_one_screen_on_top_holds_the_summary(tmp_path, what):
    assert what in top_screen(render(tmp_path, base_report()))


@pytest.mark.parametrize("step", ["string", "pattern", "alignment", "target_only", "consistency", "target_consistency",
                                  "corpus_target_consistency", "date_shown_in_source", "spread_word_dropped",
                                  "aligned_head_trimmed"])
def test_each_transfer_step_is_explained_in_words(tmp_path, step):
    page = render(tmp_path, base_report(transfer__steps={step: 4}))
    assert f"<code>{step}</code>" in page and STEP_WORDS[step] in page


@pytest.mark.parametrize("step", sorted(STEP_WORDS) + sorted(FIGURE_WORDS))
def test_the_page_s_own_words_hold_no_date_or_number_an_audit_could_match(step):
    # the audit scans report.html for every original: an example date in the page's own words ("3 de março de
    # 2020") matched a corpus's date of the same day and made a clean run exit 1
    words = STEP_WORDS.get(step) or FIGURE_WORDS[step]
    assert not re.search(r"\d", words)


def test_the_sample_run_report(sample_out):
    report = json.loads((sample_out / "report.json").read_text(encoding="utf-8"))
    for key in ("audit", "units", "mentions", "entities", "entities_by_category", "rules", "transfer", "side_mismatch",
                "consistency_masks", "timings_s"):
        assert key in report, key
    page = (sample_out / "report.html").read_text(encoding="utf-8")
    top = top_screen(page)
    assert "Audit: clean" in top and f"{report['units']['written']:,}" in top
    for cat, n in report["entities_by_category"].items():
        assert f"<td>{cat}</td><td class='n'>{n:,}</td>" in top
    for step, n in report["transfer"]["steps"].items():
        if n:
            assert STEP_WORDS[step] in page
    assert "<tbody></tbody>" not in page


def test_the_page_written_again_after_the_audit_is_the_page_written_at_once(tmp_path):
    """The report is written before the audit (it is audited) and again with the audit's result: only its head
    and timings are made again, and the page is the one written with the result from the start."""
    report = base_report(units__skipped=2, units__skipped_by_reason={"missing pt side": 2})
    before = {k: v for k, v in report.items() if k != "audit"}
    render(tmp_path, before)
    parts = write_report(tmp_path, before, ENTITIES)
    leaky = base_report(audit__clean=False, audit__leaked_originals=3, timings_s={"audit": 0.5})
    again = {**before, "audit": leaky["audit"], "timings_s": leaky["timings_s"]}
    write_report(tmp_path, again, ENTITIES, parts)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page == render(tmp_path, again) and "3 originals visible" in page
