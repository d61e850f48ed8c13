"""The English side of a finished run: ``python bench/target_side.py OUTDIR [--show]``.

Prints one JSON object with the figures issue 20 measures on a run's outputs:

* ``pairs_numbers_differ``: pairs whose two sides carry different sets of entity numbers, and the share of
  all pairs; ``only_target_extra``: those where the target has numbers the source lacks and nothing else
  differs (masks only in English);
* ``target_forms_over_10``: English forms (folded) masked more than 10 times; with ``--show`` the forms
  themselves and their counts (they come from ``keys.sqlite``: run it only on public text such as DGT-TM);
* the report's transfer step counts.

``--gold corpora/gold/dgt/annotations.jsonl`` sets the documents of a test set apart (the DGT precision gold:
its ``doc`` values, mapped to the run's opaque ids through the ``ids`` table of ``keys.sqlite``): the figures are
then given for the whole run and for the other documents, and ``--list`` prints the mismatching pairs of the
OTHER documents only (id, the target's extra placeholders, the source's missing categories), for tuning.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import Counter
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--show", action="store_true", help="list the forms masked more than 10 times (originals; "
                    "with --gold, counted outside its documents)")
    ap.add_argument("--gold", type=Path, help="a gold annotations.jsonl whose documents are a test set")
    ap.add_argument("--list", action="store_true", help="with --gold: the mismatching pairs outside its documents")
    args = ap.parse_args()
    out = args.outdir
    test_docs = _test_docs(out, args.gold) if args.gold else set()
    counts, listed = _pairs(out, test_docs, args.list)
    forms, other_forms = _target_forms(out, test_docs)
    frequent = {f: n for f, n in forms.most_common() if n > 10}
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    res = {"pairs": counts["pairs"], "pairs_numbers_differ": counts["differ"],
           "share_differ": round(counts["differ"] / max(counts["pairs"], 1), 4),
           "only_target_extra": counts["only_tgt"], "target_masks": sum(forms.values()),
           "target_forms_over_10": len(frequent),
           "target_masks_of_forms_over_10": sum(frequent.values()),
           "steps": report.get("transfer", {}).get("steps", {})}
    other_frequent = {f: n for f, n in other_forms.most_common() if n > 10}
    if args.gold:
        res["outside_test_docs"] = {"pairs": counts["other_pairs"], "pairs_numbers_differ": counts["other_differ"],
                                    "share_differ": round(counts["other_differ"] / max(counts["other_pairs"], 1), 4),
                                    "target_forms_over_10": len(other_frequent)}
    if args.show:
        res["forms_over_10"] = other_frequent if args.gold else frequent
    if args.list:
        res["mismatching_pairs_outside_test_docs"] = listed
    json.dump(res, sys.stdout, ensure_ascii=False, indent=1)
    print()


def _pairs(out: Path, test_docs: set[str], listing: bool) -> tuple[Counter, list]:
    """Pairs, pairs whose sides carry different numbers (all, outside ``test_docs``), and the listing."""
    counts: Counter = Counter()
    listed = []
    for line in (out / "corpus.jsonl").open(encoding="utf-8"):
        rec = json.loads(line)
        outside = rec["doc"] not in test_docs
        counts["pairs"] += 1
        counts["other_pairs"] += outside
        src = {m["entity"] for m in rec["src_mentions"]}
        tgt = {m["entity"] for m in rec["tgt_mentions"]}
        if src == tgt:
            continue
        counts["differ"] += 1
        counts["other_differ"] += outside
        counts["only_tgt"] += src < tgt
        if outside and listing:
            listed.append((rec["id"], [rec["tgt"][m["start"]:m["end"]] for m in rec["tgt_mentions"]
                                       if m["entity"] not in src],
                           [m["category"] for m in rec["src_mentions"] if m["entity"] not in tgt]))
    return counts, listed


def _target_forms(out: Path, test_docs: set[str]) -> tuple[Counter, Counter]:
    """The target side's masked forms (folded) and how often each is masked: all, and outside ``test_docs``."""
    forms: Counter = Counter()
    other: Counter = Counter()
    db = sqlite3.connect(str(out / "keys.sqlite"))
    try:
        for unit, original in db.execute("SELECT unit, original FROM mentions WHERE side = 'tgt'"):
            key = " ".join(original.casefold().split())
            forms[key] += 1
            if unit.rsplit(":", 1)[0] not in test_docs:
                other[key] += 1
    finally:
        db.close()
    return forms, other


def _test_docs(out: Path, gold: Path) -> set[str]:
    """The run's (opaque) document ids of the documents a gold file annotates."""
    names = {json.loads(line)["doc"] for line in gold.open(encoding="utf-8") if line.strip()}
    db = sqlite3.connect(str(out / "keys.sqlite"))
    try:
        return {public for public, original in db.execute("SELECT public, original FROM ids WHERE kind = 'doc'")
                if original in names}
    finally:
        db.close()


if __name__ == "__main__":
    main()
