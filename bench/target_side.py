"""The English side of a finished run: ``python bench/target_side.py OUTDIR [--show]``.

Prints one JSON object with the figures issue 20 measures on a run's outputs:

* ``pairs_numbers_differ``: pairs whose two sides carry different sets of entity numbers, and the share of
  all pairs; ``only_target_extra``: those where the target has numbers the source lacks and nothing else
  differs (masks only in English);
* ``target_forms_over_10``: English forms (folded) masked more than 10 times; with ``--show`` the forms
  themselves and their counts (they come from ``keys.sqlite``: run it only on public text such as DGT-TM);
* the report's transfer step counts.
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
    ap.add_argument("--show", action="store_true", help="list the forms masked more than 10 times (originals)")
    args = ap.parse_args()
    out = args.outdir
    pairs = differ = only_tgt = 0
    for line in (out / "corpus.jsonl").open(encoding="utf-8"):
        rec = json.loads(line)
        pairs += 1
        src = {m["entity"] for m in rec["src_mentions"]}
        tgt = {m["entity"] for m in rec["tgt_mentions"]}
        if src != tgt:
            differ += 1
            if src < tgt:
                only_tgt += 1
    db = sqlite3.connect(str(out / "keys.sqlite"))
    try:
        forms = Counter(" ".join(r[0].casefold().split()) for r in
                        db.execute("SELECT original FROM mentions WHERE side = 'tgt'"))
    finally:
        db.close()
    frequent = {f: n for f, n in forms.most_common() if n > 10}
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    res = {"pairs": pairs, "pairs_numbers_differ": differ, "share_differ": round(differ / max(pairs, 1), 4),
           "only_target_extra": only_tgt, "target_masks": sum(forms.values()),
           "target_forms_over_10": len(frequent),
           "target_masks_of_forms_over_10": sum(frequent.values()),
           "steps": report.get("transfer", {}).get("steps", {})}
    if args.show:
        res["forms_over_10"] = frequent
    json.dump(res, sys.stdout, ensure_ascii=False, indent=1)
    print()


if __name__ == "__main__":
    main()
