"""A review's decisions applied against the full run: ``python bench/apply.py [--pairs 40000] [--workers 2]``.

Makes the N-pair bench corpus with ``bench/make_corpus.py`` (kept in ``--data``, outside git: it is reused by
later runs), runs ``paranon run`` on it, draws ``--decisions`` decisions of mixed kinds from the run's own
entity table (``keys.sqlite``; seeded): *not an entity* everywhere and in one document, *change category*, and
*mask this span* (a candidate miss of the review page, drawn at random), writes them to ``review.yaml``, and times
``paranon apply``. Both are timed as child processes (wall and CPU seconds, the CPU of every process they
waited for). Prints one JSON object: both times, the ratios, what apply recomputed, both runs' stage times
(``report.json``'s ``timings_s``), how the index was updated, the audits' results and the load average before
and after each.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CATEGORIES = ("PERSON", "ORGANIZATION_COMPANY", "ADDRESS", "NAMEID")


def timed(cmd: list[str]) -> dict:
    load = round(os.getloadavg()[0], 2)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode() if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: complete, the audit found originals (reported)
        raise SystemExit(f"{' '.join(cmd[2:4])} failed: {err.strip().splitlines()[-1:]}")
    return {"wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "exit": code,
            "load_before": load, "load_after": round(os.getloadavg()[0], 2)}


def draw(out: Path, n: int, seed: int = 0) -> dict:
    """``n`` decisions of mixed kinds: forms from the run's entity table (not an entity, everywhere or in the
    document of its first mention; a new category) and candidate misses the review page lists (mask this span)."""
    from paranon.review import candidate_misses

    rnd = random.Random(seed)
    db = sqlite3.connect(out / "keys.sqlite")
    forms = [f for (f,) in db.execute("SELECT DISTINCT original FROM mentions WHERE side = 'src' AND "
                                      "length(original) > 5 ORDER BY original")]
    units = dict(db.execute("SELECT original, MIN(unit) FROM mentions WHERE side = 'src' GROUP BY original"))
    db.close()
    docs = {}
    with open(out / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            docs[r["id"]] = r["doc"]
    misses = [c["text"] for c in candidate_misses(out) if c["kind"] == "name"]
    picked = rnd.sample(forms, n)
    quarter = n // 4
    per_doc: dict[str, list[str]] = {}
    for f in picked[quarter:2 * quarter]:
        per_doc.setdefault(docs[units[f]], []).append(f)
    deny: dict[str, list[str]] = {}
    for f in picked[2 * quarter:3 * quarter]:
        deny.setdefault(rnd.choice(CATEGORIES), []).append(f)
    deny.setdefault("PERSON", []).extend(rnd.sample(misses, n - 3 * quarter))
    return {"allow": picked[:quarter], "allow_in_documents": per_doc, "deny": deny}


def _index_update(out: Path) -> dict | None:
    """How the index was brought up to date after apply (``backend.json``: updated in place, how many pairs)."""
    meta = out / "index" / "backend.json"
    return json.loads(meta.read_text(encoding="utf-8")) if meta.exists() else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=40000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--data", type=Path, default=Path("/work/data/apply-bench"),
                    help="where the corpus and the run's output are kept (outside git)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    args.data.mkdir(parents=True, exist_ok=True)
    tmx = args.data / f"bench-{args.pairs}.tmx"
    if not tmx.exists():
        sys.path.insert(0, str(HERE))
        from make_corpus import main as make

        make(args.pairs, tmx)
    out = args.data / "out"
    shutil.rmtree(out, ignore_errors=True)
    paranon = [sys.executable, "-m", "paranon.cli"]
    full = timed(paranon + ["run", str(tmx), "-o", str(out), "--workers", str(args.workers), "--quiet"])
    full_stages = json.loads((out / "report.json").read_text(encoding="utf-8"))["timings_s"]
    from paranon.review import Decisions

    Decisions(**draw(out, args.decisions)).save(out)
    applied = timed(paranon + ["apply", str(out), "--workers", str(args.workers), "--quiet"])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    print(json.dumps({
        "pairs": report["units"]["written"], "workers": args.workers, "decisions": args.decisions,
        "full_run": full, "apply": applied,
        "ratio_wall": round(applied["wall_s"] / full["wall_s"], 3),
        "ratio_cpu": round(applied["cpu_s"] / full["cpu_s"], 3),
        "recomputed": report.get("applied"), "full_run_stage_s": full_stages, "apply_stage_s": report["timings_s"],
        "index_update": _index_update(out),
        "audit_after_apply": {k: report["audit"][k] for k in ("clean", "leaked_originals", "seconds")},
    }))


if __name__ == "__main__":
    main()
