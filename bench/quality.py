"""Quality of the default configuration on every named evaluation set (corpora/evalsets.yaml).

Prints two tables: "TEST (quality)", the figures to quote, and "TUNING (not quality)", figures on text whose
errors may have shaped the rules. Per set: token leak per category, exact untyped F1, token precision and
over-masking (``paranon eval ner``); for two-sided sets also the transfer figures (``paranon eval
transfer``). Only figures: no entity string of any set is printed. A set whose file is absent is skipped
with a note.

    python bench/quality.py                      # every set, whole
    python bench/quality.py --limit 2000         # at most ~2,000 sentences (whole documents) per set
    python bench/quality.py --sets lener-dev,sample --json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the project folder (paranon is installed from it)


def main(argv: list[str] | None = None) -> int:
    from paranon.align.evaluate import evaluate_transfer
    from paranon.anonymize.evaluate import evaluate_ner
    from paranon.corpora.evalsets import load_sets

    from paranon.config import load_config

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--config", help="settings YAML (default: paranon's defaults)")
    p.add_argument("--limit", type=int, help="per set, whole documents until this many sentences (pairs for "
                   "transfer); default: all")
    p.add_argument("--sets", help="comma-separated set names (default: all)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    args = p.parse_args(argv)

    cfg = load_config(args.config)
    cfg["workers"] = 1
    wanted = set(args.sets.split(",")) if args.sets else None
    sets = [s for s in load_sets() if wanted is None or s.name in wanted]
    out: dict = {"config": args.config or "defaults", "limit": args.limit, "sets": {}, "skipped": {}}
    for es in sets:
        if not es.exists():
            where = es.path.relative_to(ROOT) if es.path.is_relative_to(ROOT) else es.path
            out["skipped"][es.name] = f"{es.kind} set {es.name} skipped: {where} is absent"
            print(f"note: {out['skipped'][es.name]}", file=sys.stderr)
            continue
        t0 = time.perf_counter()
        res = {"kind": es.kind,
               "ner": evaluate_ner(es.path, es.format, es.map, cfg, limit=args.limit, strings=False)}
        res["ner"].pop("by_doc")
        if es.transfer:
            res["transfer"] = evaluate_transfer(es.path, cfg, strings=False, limit=args.limit)
        res["seconds"] = round(time.perf_counter() - t0, 1)
        out["sets"][es.name] = res
        print(f"{es.name}: {res['ner']['documents']} documents, {res['ner']['sentences']} sentences, "
              f"{res['seconds']} s", file=sys.stderr)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print_tables(out, args.limit)
    return 0


def print_tables(out: dict, limit: int | None) -> None:
    """The two tables, test sets first: their figures are the quality; the tuning sets' are not."""
    from paranon.evaltables import leak_why_lines, ner_table, over_masked_line, recall_lines, transfer_table

    for kind, title in (("test", "TEST (quality)"), ("tuning", "TUNING (not quality)")):
        rows = [(n, r["kind"], r["ner"]) for n, r in out["sets"].items() if r["kind"] == kind]
        print(f"\n{title}" + (f" -- at most ~{limit} sentences per set" if limit else ""))
        if not rows:
            print("(no set present)")
            continue
        print(ner_table(rows))
        two_sided = [(n, r["kind"], r["transfer"]) for n, r in out["sets"].items()
                     if r["kind"] == kind and "transfer" in r]
        if two_sided:
            print("\ntransfer (two-sided sets)")
            print(transfer_table(two_sided))
            print("\n".join(recall_lines(two_sided)))
        notes = []
        for n, _, r in rows:
            notes += leak_why_lines(n, r)
            line = over_masked_line(n, r)
            if line:
                notes.append(line)
        if notes:
            print("\n" + "\n".join(notes))
    for note in out["skipped"].values():
        print(f"note: {note}")


if __name__ == "__main__":
    sys.exit(main())
