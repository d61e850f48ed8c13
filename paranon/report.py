"""``report.html``: the run's counts for people, and the entity table reviewers audit (numbers, no originals).

Originals live only in ``keys.sqlite``; ``paranon reveal`` shows them to authorized reviewers.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from .corpora.formats import atomic_write


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
