"""``report.html``: the run for a person; ``report.json``: every figure, for scripts.

The page opens with one screen: pairs read, written and skipped, entities per category, the leak audit's
result and what to review first. Below, folded sections (``<details>``): units skipped and why, the
transfer steps explained in words, the units whose entities did not reach the target side or whose sides
disagree (anonymized texts, with the placeholder in question marked), the rules that fired and the entity
table. A section with nothing in it is left out. No original appears: originals live only in
``keys.sqlite`` (``paranon reveal`` shows them to authorized reviewers).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from html import escape
from pathlib import Path
from typing import Any

from .corpora.formats import atomic_write
from .text import PLACEHOLDER

ID_FIRST = re.compile(r'\{"id": "([^"\\]*)"')  # a record's id when it comes first, without escapes
LISTED_UNITS = 200  # units listed per review section of the HTML (report.json keeps up to 1,000 ids)
# what each transfer step did, for people
STEP_WORDS = {
    "string": "found on the target side written as in the source (a name is spelt alike in both languages)",
    # (no real date or name in these words: the audit scans report.html for every original, and a corpus's own
    # date would match an example)
    "pattern": "found as the same date or number written the target language's way (<i>dia de mês de ano</i> "
               "&rarr; <i>Month day, year</i>)",
    "alignment": "found through the word alignment: the target words aligned to the source placeholder",
    "target_only": "identifiers only the target side has (an e-mail, a phone number), given new numbers",
    "consistency": "an entity form found anywhere in the corpus's source side, masked where the target shows it",
    "target_consistency": "a target form found in one pair of a document, masked in the document's other pairs",
    "corpus_target_consistency": "a target form found in one document, masked where it still showed in other "
                                 "documents",
    "english": "found by the English recognizer (a date, identifier, address or company of the target language's "
               "own layout) and matched to the source entity it stands for",
    "english_widened": "a target mention widened by the English recognizer to the whole name or address "
                       "(a legal-form tail, an en dash, a postcode)",
    "alias": "a long form before its bracketed acronym, given the acronym's number",
    "target_spread_withheld": "a target form NOT spread to other pairs: not a plausible name on its own (a frequent "
                              "English word, a country) or without evidence (not aligned from its entity twice)",
    "allowed_visible": "target words left visible because they translate an allowed source form",
    "english_date_public": "English dates left visible: the source side masks no date they could stand for (it "
                           "shows them as public text)",
    "date_shown_in_source": "English dates unmasked because the pair's source side shows the same date unmasked "
                            "(an act's date) and carries no entity they stand for",
    "spread_word_dropped": "spread target masks removed: English words, not a name (\"Code\", \"POWER OF "
                           "ATTORNEY\"), whose entity is not on the pair's source side",
    "aligned_head_trimmed": "aligned names that lost a head noun translating a visible source word "
                            "(\"Regulation of the\" before an organisation)",
}
FIGURE_WORDS = {
    "guard_masks": "leak guard: target words masked after the transfer because they still matched a source entity",
    "target_only": "identifiers only the target side has",
    "consistency_src": "source mentions added because the entity was found in another document",
    "consistency_tgt": "target mentions added because the form was found in another document",
}


def publish_report(outdir: Path, report: dict[str, Any], entities: list[dict[str, Any]], cfg: dict[str, Any],
                   audit_state: Path | None = None) -> None:
    """Write ``report.json`` and ``report.html``, audit every public file (the reports included) for the
    originals of ``keys.sqlite`` (``audit_state``: the audit's private state, ``audit.audit``), and write both
    reports again with the audit's result on top. What is added after the audit is categories, file names,
    counts and unit ids."""
    from .audit import audit

    report.update(review_figures(outdir))
    report["entities_by_category"] = entities_by_category(outdir / "keys.sqlite")

    def write(again: list[str] | None = None) -> list[str]:
        parts = write_report(outdir, report, entities, again)
        with atomic_write(outdir / "report.json") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=2)
        return parts

    parts = write()
    t0 = time.perf_counter()
    result = audit(outdir, cfg, state=audit_state).to_json()
    report.setdefault("timings_s", {})["audit"] = round(time.perf_counter() - t0, 3)
    rest = dict(report)
    report.clear()
    report.update({"audit": result, **rest})
    write(parts)


# -- figures read back from the outputs ---------------------------------------------------------

def entities_by_category(keys: Path) -> dict[str, int]:
    """Distinct source-side entities (scope and number) per category."""
    if not keys.exists():
        return {}
    db = sqlite3.connect(f"file:{keys}?mode=ro", uri=True)
    try:
        return dict(db.execute("SELECT category, COUNT(*) FROM (SELECT DISTINCT scope, number, category FROM mentions "
                               "WHERE side = 'src') GROUP BY category ORDER BY COUNT(*) DESC"))
    finally:
        db.close()


def side_mismatch(rec: dict[str, Any]) -> tuple[set[int], set[int]]:
    """Entity numbers only the source side has, and only the target side has."""
    src = {m["entity"] for m in rec.get("src_mentions", [])}
    tgt = {m["entity"] for m in rec.get("tgt_mentions", [])}
    return src - tgt, tgt - src


def review_figures(outdir: Path) -> dict[str, Any]:
    """Units whose sides disagree: an entity on one side only (ids of the first 1,000, and the count)."""
    units: list[dict[str, Any]] = []
    n = 0
    corpus = outdir / "corpus.jsonl"
    if corpus.exists():
        with open(corpus, encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                only_src, only_tgt = side_mismatch(rec)
                if only_src or only_tgt:
                    n += 1
                    if len(units) < 1000:
                        units.append({"id": rec["id"], "source_only": sorted(only_src), "target_only": sorted(only_tgt)})
    return {"side_mismatch": {"units": n, "first_units": units}}


def _records(outdir: Path, ids: set[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if not ids or not (outdir / "corpus.jsonl").exists():
        return out
    with open(outdir / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            first = ID_FIRST.match(line)  # paranon writes the id first: a line of another unit is not parsed
            if first is not None and first.group(1) not in ids:
                continue
            rec = json.loads(line)
            if rec["id"] in ids:
                out[rec["id"]] = rec
                if len(out) == len(ids):
                    break
    return out


# -- HTML ---------------------------------------------------------------------------------------

STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;line-height:1.4}"
         "table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;"
         "vertical-align:top}th{background:#eef}td.n{text-align:right}summary{cursor:pointer;font-weight:600;"
         "margin:.8em 0 .3em}.ok{color:#064}.bad{color:#a00}.top{display:flex;flex-wrap:wrap;gap:2em}"
         "mark{background:#fd6}td:has(.text){width:40%}ol li{margin:.2em 0}.text{font-family:ui-monospace,monospace;font-size:.9em}")


def _table(rows: list[list[Any]], head: list[str]) -> str:
    if not rows:
        return ""
    h = "".join(f"<th>{escape(str(x))}</th>" for x in head)
    body = "".join("<tr>" + "".join(_cell(c) for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def _cell(c: Any) -> str:
    if isinstance(c, int | float) and not isinstance(c, bool):
        return f"<td class='n'>{c:,}</td>"
    if isinstance(c, Raw):
        return f"<td>{c}</td>"
    return f"<td>{escape(str(c))}</td>"


class Raw(str):
    """Already-escaped HTML for a table cell."""


def _section(title: str, body: str, anchor: str = "", open_: bool = False) -> str:
    if not body:
        return ""
    ident = f" id='{anchor}'" if anchor else ""
    return f"<details{ident}{' open' if open_ else ''}><summary>{title}</summary>{body}</details>"


def _marked(text: str, numbers: set[int]) -> Raw:
    """An anonymized text, escaped, with the placeholders of ``numbers`` marked."""
    out, last = [], 0
    for m in PLACEHOLDER.finditer(text):
        out.append(escape(text[last:m.start()]))
        ph = escape(m.group(0))
        out.append(f"<mark>{ph}</mark>" if int(m.group(1)) in numbers else ph)
        last = m.end()
    out.append(escape(text[last:]))
    return Raw(f"<span class='text'>{''.join(out)}</span>")


def audit_html(a: dict[str, Any]) -> str:
    """The audit's result: clean, or what is visible where."""
    if a["clean"]:
        head = (f"<p class='ok'><b>Audit: clean.</b> None of the {a['originals']:,} original strings of "
                f"<code>keys.sqlite</code> is visible in the {len(a['files_scanned'])} public files.</p>")
    else:
        n = sum(r["hits"] for r in a["leaks"])
        head = (f"<p class='bad'><b>Audit: {a.get('leaked_originals', '')} originals are visible in public files "
                f"({n:,} hits).</b> Run <code>paranon audit OUTDIR --show</code> privately to see which.</p>")
        head += _section("Where", _table([[r["category"], r["file"], r["hits"], r["originals"]] for r in a["leaks"]],
                                         ["category", "file", "hits", "distinct originals"]), "audit-leaks")
    if a["also_public"]:
        head += _section("Also public text (not leaks): originals met inside allowed strings, as ordinary words "
                         "or as numbers that are not identifiers",
                         _table([[r["category"], r["file"], r["hits"], r["originals"]] for r in a["also_public"]],
                                ["category", "file", "hits", "distinct originals"]))
    return head


def _review_first(report: dict[str, Any], entities: list[dict[str, Any]]) -> str:
    items = []
    a = report.get("audit")
    if a and not a["clean"]:
        items.append(f"<a href='#audit-leaks'>{a.get('leaked_originals', 0)} originals visible</a> in public files "
                     "(the audit above)")
    untransferred = sum(report["transfer"]["untransferred"].values())
    if untransferred:
        items.append(f"<a href='#untransferred'>{untransferred:,} source entities not found on the target side</a>: "
                     "translated away, or still visible in the translation")
    mism = report.get("side_mismatch", {}).get("units", 0)
    if mism:
        items.append(f"<a href='#mismatch'>{mism:,} units whose sides disagree</a> (an entity on one side only)")
    fallback = sum(1 for e in entities if any(k.startswith("fallback") for k in e["rules"]))
    if fallback:
        items.append(f"<a href='#entities'>{fallback:,} entities found only by a fall-back rule</a> (recall-first "
                     "guesses: capitals, compound proper nouns, identifier-shaped numbers)")
    skipped = report["units"]["skipped"]
    if skipped:
        items.append(f"<a href='#skipped'>{skipped:,} units skipped</a>: they are not in the corpus")
    if not items:
        return "<p class='ok'>Nothing stands out for review.</p>"
    return "<h2>Review first</h2><ol>" + "".join(f"<li>{i}</li>" for i in items) + "</ol>"


def _unit_rows(outdir: Path, wanted: list[tuple[str, set[int], str]]) -> list[list[Any]]:
    recs = _records(outdir, {i for i, _, _ in wanted})
    rows = []
    for uid, numbers, what in wanted:
        rec = recs.get(uid)
        if rec is not None:
            rows.append([uid, what, _marked(rec["src"], numbers), _marked(rec["tgt"], numbers)])
    return rows


def write_report(outdir: Path, report: dict[str, Any], entities: list[dict[str, Any]],
                 again: list[str] | None = None) -> list[str]:
    """``report.html``; returns its parts. ``again``: the parts of the page written before the audit, whose
    head (the audit, what to review first) and timings only are made again (the rest reads the corpus)."""
    if again is not None:
        parts = list(again)
        head = _head(report, entities)
        parts[:len(head)] = head
        parts[-1] = _timings(report)
        _write_page(outdir, parts)
        return parts
    u = report["units"]
    parts = _head(report, entities)
    # folded sections
    parts.append(_section(f"Skipped units ({u['skipped']:,})",
                          _table(sorted(u["skipped_by_reason"].items()), ["skipped because", "units"])
                          + (("<p>First skipped units:</p><pre>" + escape("\n".join(u["skipped_examples"])) + "</pre>")
                             if u["skipped_examples"] else ""), "skipped"))
    parts += _target_side(outdir, report)
    parts.append(_section("Rules that fired", _table([[*k.split("|", 1), v] for k, v in report["rules"].items()],
                                                     ["recognizer", "rule", "mentions"])))
    ent_rows = [[e["scope"], e["number"], e["category"], e["mentions"],
                 ", ".join(f"{k} ({v})" for k, v in e["rules"].items())] for e in entities[:20000]]
    parts.append(_section(f"Entities ({report.get('entities', len(entities)):,})",
                          "<p>Every entity with its number, category, mentions and the rules that found it "
                          "(originals: <code>paranon reveal</code> or <code>paranon review</code>).</p>"
                          + _table(ent_rows, ["scope", "number", "category", "mentions", "recognizer:rule"]),
                          "entities"))
    parts.append(_timings(report))
    _write_page(outdir, parts)
    return parts


def _timings(report: dict[str, Any]) -> str:
    timings = report.get("timings_s", {})
    return _section("Timings", _table([[k, v] for k, v in timings.items()], ["stage", "seconds"]))


def _write_page(outdir: Path, parts: list[str]) -> None:
    with atomic_write(outdir / "report.html") as fh:
        fh.write("\n".join(p for p in parts if p))


def _head(report: dict[str, Any], entities: list[dict[str, Any]]) -> list[str]:
    """The page's head: the input, the audit, the counts by category, what to review first."""
    u = report["units"]
    by_cat = report.get("entities_by_category") or {}
    src_m, tgt_m = report["mentions"]["src"], report["mentions"]["tgt"]
    cats = sorted(set(by_cat) | set(src_m) | set(tgt_m), key=lambda c: -by_cat.get(c, 0))
    top = ("<div class='top'>"
           + _table([["read", u["read"]], ["written", u["written"]], ["skipped", u["skipped"]]], ["pairs", ""])
           + _table([[c, by_cat.get(c, 0), src_m.get(c, 0), tgt_m.get(c, 0)] for c in cats],
                    ["category", "entities", f"mentions ({report['src_lang']})", f"mentions ({report['tgt_lang']})"])
           + "</div>")
    return [
        f"<!doctype html><html lang='en'><meta charset='utf-8'><title>paranon report</title><style>{STYLE}</style>",
        f"<h1>paranon run report</h1><p>Input <code>{escape(report['input'])}</code> "
        f"({escape(report['src_lang'])} &rarr; {escape(report['tgt_lang'])}); aligner: {escape(report['aligner'])}."
        f"</p>",
        audit_html(report["audit"]) if "audit" in report else "",
        top,
        _review_first(report, entities),
    ]


def _target_side(outdir: Path, report: dict[str, Any]) -> list[str]:
    """The sections on the target side: the transfer's steps, what it did not find, the sides that disagree."""
    tr = report["transfer"]
    steps = [[Raw(f"<code>{escape(k)}</code>"), Raw(STEP_WORDS.get(k, escape(k))), v]
             for k, v in sorted(tr["steps"].items(), key=lambda kv: -kv[1]) if v]
    figures = [[FIGURE_WORDS["guard_masks"], tr["guard_masks"]],
               [FIGURE_WORDS["consistency_src"], report.get("consistency_masks", {}).get("src", 0)]]
    parts = [_section("How the entities reached the target side",
                      _table(steps, ["step", "what it did", "mentions"])
                      + _table([r for r in figures if r[1]], ["other masks", "mentions"]))]
    wanted: dict[str, set[int]] = {}
    for x in tr.get("untransferred_units", []):
        wanted.setdefault(x["id"], set()).add(x["entity"])
    rows = _unit_rows(outdir, [(i, n, ", ".join(f"#{k}" for k in sorted(n))) for i, n in list(wanted.items())[:LISTED_UNITS]])
    n_un = sum(tr["untransferred"].values())
    parts.append(_section(
        f"Source entities not found on the target side ({n_un:,})",
        _table(sorted(tr["untransferred"].items(), key=lambda kv: -kv[1]), ["category", "mentions"])
        + (f"<p>The first {len(rows)} units; the entity's placeholder is marked in the source: look for its "
           "translation in the target.</p>" if rows else "")
        + _table(rows, ["unit", "entity", report["src_lang"], report["tgt_lang"]]), "untransferred"))
    mism = report.get("side_mismatch", {})
    rows = _unit_rows(outdir, [(x["id"], set(x["source_only"]) | set(x["target_only"]),
                                "; ".join(filter(None, [
                                    f"{report['src_lang']} only: " + ", ".join(f"#{k}" for k in x["source_only"])
                                    if x["source_only"] else "",
                                    f"{report['tgt_lang']} only: " + ", ".join(f"#{k}" for k in x["target_only"])
                                    if x["target_only"] else ""])))
                               for x in mism.get("first_units", [])[:LISTED_UNITS]])
    parts.append(_section(f"Units whose sides disagree ({mism.get('units', 0):,})",
                          (f"<p>An entity number on one side only (the first {len(rows)} units; the placeholders "
                           "in question are marked).</p>" if rows else "")
                          + _table(rows, ["unit", "entity", report["src_lang"], report["tgt_lang"]]), "mismatch"))
    return parts
