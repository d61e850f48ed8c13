"""``report.html``: the run's counts for people, and the entity table reviewers audit (numbers, no originals).

Originals live only in ``keys.sqlite``; ``paranon reveal`` shows them to authorized reviewers.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from .corpora.formats import atomic_write


def publish_report(outdir: Path, report: dict[str, Any], entities: list[dict[str, Any]], cfg: dict[str, Any]) -> None:
    """Write ``report.json`` and ``report.html``, audit every public file (the reports included) for the
    originals of ``keys.sqlite``, and write both reports again with the audit's result on top. The audit
    section is made of categories, file names and counts only."""
    import json
    import time

    from .audit import audit

    def write() -> None:
        write_report(outdir, report, entities)
        with atomic_write(outdir / "report.json") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=2)

    write()
    t0 = time.perf_counter()
    result = audit(outdir, cfg).to_json()
    report.setdefault("timings_s", {})["audit"] = round(time.perf_counter() - t0, 3)
    rest = dict(report)
    report.clear()
    report.update({"audit": result, **rest})
    write()


def audit_html(a: dict[str, Any]) -> str:
    """The audit's result for the top of the report: clean, or what is visible where."""
    if a["clean"]:
        head = (f"<p class='ok'><b>Audit: clean.</b> No original of <code>keys.sqlite</code> ({a['originals']} "
                f"strings) is visible in the {len(a['files_scanned'])} public files.</p>")
    else:
        n = sum(r["hits"] for r in a["leaks"])
        head = (f"<p class='bad'><b>Audit: {n} hits of originals are visible in public files.</b> Run "
                f"<code>paranon audit OUTDIR --show</code> (privately) to see which.</p>")
        head += _table([[r["category"], r["file"], r["hits"], r["originals"]] for r in a["leaks"]],
                       ["category", "file", "hits", "distinct originals"])
    if a["also_public"]:
        head += ("<details><summary>Also public text: originals met inside allowed strings or as ordinary "
                 "lowercase words (not leaks)</summary>"
                 + _table([[r["category"], r["file"], r["hits"], r["originals"]] for r in a["also_public"]],
                          ["category", "file", "hits", "distinct originals"]) + "</details>")
    return head


def _table(rows: list[list[Any]], head: list[str]) -> str:
    h = "".join(f"<th>{escape(str(x))}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def write_report(outdir: Path, report: dict[str, Any], entities: list[dict[str, Any]]) -> None:
    u = report["units"]
    parts = [
        "<!doctype html><meta charset='utf-8'><title>paranon report</title>",
        "<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;"
        "margin:1em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}th{background:#eef}</style>",
        f"<h1>paranon run report</h1><p>Input: <code>{escape(report['input'])}</code> "
        f"({escape(report['src_lang'])} &rarr; {escape(report['tgt_lang'])}); aligner: {escape(report['aligner'])}</p>",
        audit_html(report["audit"]) if "audit" in report else "",
        "<h2>Units</h2>",
        _table([[u["read"], u["written"], u["skipped"]]], ["read", "written", "skipped"]),
        _table(sorted(u["skipped_by_reason"].items()), ["skipped because", "units"]),
        "<details><summary>first skipped units</summary><pre>" + escape("\n".join(u["skipped_examples"])) + "</pre></details>",
        "<h2>Mentions per category</h2>",
        _table([[c, report["mentions"]["src"].get(c, 0), report["mentions"]["tgt"].get(c, 0)]
                for c in sorted(set(report["mentions"]["src"]) | set(report["mentions"]["tgt"]))],
               ["category", "source", "target"]),
        "<h2>Transfer to the target side</h2>",
        _table(sorted(report["transfer"]["steps"].items()), ["step", "mentions"]),
        f"<p>Leak-guard masks: {report['transfer']['guard_masks']}; target-only identifiers: "
        f"{report['transfer']['target_only']}</p>",
        _table(sorted(report["transfer"]["untransferred"].items()), ["untransferred category", "mentions"]),
        "<h2>Rules that fired</h2>",
        _table([[k.split("|")[0], k.split("|")[1], v] for k, v in report["rules"].items()],
               ["recognizer", "rule", "mentions"]),
        "<h2>Entities</h2><p>Every entity with its number, category, mentions and the rules that found it. "
        "Originals are in <code>keys.sqlite</code> only (<code>paranon reveal</code>).</p>",
        _table([[e["scope"], e["number"], e["category"], e["mentions"], ", ".join(f"{k} ({v})" for k, v in e["rules"].items())]
                for e in entities[:20000]], ["scope", "number", "category", "mentions", "recognizer:rule"]),
    ]
    with atomic_write(outdir / "report.html") as fh:
        fh.write("\n".join(parts))
