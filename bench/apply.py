"""A review's decisions applied against the full run: ``python bench/apply.py [--pairs 40000] [--workers 2]``.

Makes the N-pair bench corpus with ``bench/make_corpus.py`` (kept in ``--data``, outside git: it is reused by
later runs), runs ``paranon run`` on it, writes the 20 fixed decisions of ``DECISIONS`` (below: *not an entity*
everywhere and in one document, *change category*, *mask this span*, *merge*, *split*) to ``review.yaml``, and
times ``paranon apply``. ``--apply-only`` times apply again on a copy of the last full run's output (kept as
``DATA/out.run``): to profile apply, not to give the ratio (the ratio needs both in one sitting). Both are timed as child processes (wall and CPU seconds, the CPU of every process they
waited for). Prints one JSON object: both times, the ratios, what apply recomputed, both runs' stage times
(``report.json``'s ``timings_s``), how the index was updated, the audits' results and the load average before
and after each.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


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


# The 20 decisions a reviewer of this corpus makes, fixed (the same before and after any change, so the ratio
# compares), all on its contracts (the bench corpus is seeded: these forms and documents are the same each
# time it is made; the DGT half of it is evaluation text: nothing is picked from it). Several reach hundreds
# of documents, as a real review's do: a public body allowed everywhere is in half the contracts.
DECISIONS = {
    # not an entity, everywhere: public bodies named by a head noun (300 contracts each)
    "allow": ["Ministério das Finanças", "Instituto da Segurança Social", "Câmara Municipal de Vila Nova de Gaia"],
    # not an entity in this document: a public body the reviewer clears where they read it
    "allow_in_documents": {"doc-0001": ["Direção-Geral do Tesouro e Finanças"],
                           "doc-0003": ["Tribunal Judicial da Comarca de Lisboa"],
                           "doc-0005": ["Direção-Geral do Tesouro e Finanças"],
                           "doc-0007": ["Tribunal Judicial da Comarca de Lisboa"],
                           "doc-0009": ["Tribunal Judicial da Comarca de Lisboa"],
                           "doc-0013": ["Direção-Geral do Tesouro e Finanças"]},
    "deny": {
        # change category: banks' acronyms that the all-upper fall-back found without a subtype (200 each);
        # a company's board is an organ of it, not a company
        "ORGANIZATION_COMPANY": ["BMI", "CAVS", "BLC"],
        "ORGANIZATION": ["Conselho de Administração da Vieira Capital, SGPS, S.A.",
                         "Conselho de Administração da Pinheiro Logística, Unipessoal, Lda."],
        # mask this span: a contract's value, left visible (every contract)
        "NAMEID": ["1.250.000,00 EUR"],
    },
    # merge: a board with its company; a surname alone with the full name it stands for
    "same_entity": [["Barros Capital, Unipessoal, Lda.",
                     "Conselho de Administração da Barros Capital, Unipessoal, Lda."],
                    ["Alves Engenharia, Lda.", "Conselho de Administração da Alves Engenharia, Lda."],
                    ["Lúcia Oliveira Esteves", "Esteves"]],
    # split: a surname after a title that is another person than the full name it was numbered with
    "different_entities": [["Pilar Lourenço Cruz", "Cruz"], ["Erika Borges Mota", "Mota"]],
}


TU = re.compile(r'<prop type="doc">([^<]*)</prop>.*?<seg>(.*?)</seg>.*?<seg>(.*?)</seg>', re.S)


def reach(tmx: Path, d: dict) -> dict:
    """How many documents of the corpus each decision's strings are in (either side, folded words, as apply
    looks for them): what it makes apply recompute, at the least (a per-document decision: its document)."""
    from paranon.apply_reach import words

    docs: dict[str, str] = {}
    for doc, src, tgt in TU.findall(tmx.read_text(encoding="utf-8")):
        docs[doc] = docs.get(doc, "") + words(html.unescape(src)) + words(html.unescape(tgt))

    def holding(forms: list[str]) -> set[str]:
        keys = [words(f) for f in forms]
        return {doc for doc, text in docs.items() if any(k in text for k in keys)}

    out, every = [], set()
    for kind, groups in (("allow", [[f] for f in d["allow"]]),
                         ("deny", [[f] for fs in d["deny"].values() for f in fs]),
                         ("same_entity", d["same_entity"]), ("different_entities", d["different_entities"])):
        for g in groups:
            got = holding(g)
            every |= got
            out.append({"kind": kind, "documents": len(got)})
    per_doc = sum(map(len, d["allow_in_documents"].values()))
    out.append({"kind": "allow_in_documents", "documents": per_doc, "decisions": per_doc})
    return {"by_decision": out, "documents_of_any_string": len(every), "documents": len(docs)}


def decision_count(d: dict) -> int:
    return (len(d["allow"]) + sum(map(len, d["allow_in_documents"].values())) + sum(map(len, d["deny"].values()))
            + len(d["same_entity"]) + len(d["different_entities"]))


def _index_update(out: Path) -> dict | None:
    """How the index was brought up to date after apply (``backend.json``: updated in place, how many pairs)."""
    meta = out / "index" / "backend.json"
    return json.loads(meta.read_text(encoding="utf-8")) if meta.exists() else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pairs", type=int, default=40000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--apply-only", action="store_true", help="time apply only, on a copy of the last run's output")
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
    out, kept = args.data / "out", args.data / "out.run"
    shutil.rmtree(out, ignore_errors=True)
    paranon = [sys.executable, "-m", "paranon.cli"]
    if args.apply_only:
        if not kept.is_dir():
            raise SystemExit(f"{kept}: no full run kept yet (run bench/apply.py without --apply-only first)")
        shutil.copytree(kept, out, symlinks=True)
        full = None
    else:
        full = timed(paranon + ["run", str(tmx), "-o", str(out), "--workers", str(args.workers), "--quiet"])
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(out, kept, symlinks=True)
    full_stages = json.loads((out / "report.json").read_text(encoding="utf-8"))["timings_s"]
    from paranon.review import Decisions

    Decisions(**DECISIONS).save(out)
    applied = timed(paranon + ["apply", str(out), "--workers", str(args.workers), "--quiet"])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    print(json.dumps({
        "pairs": report["units"]["written"], "workers": args.workers, "decisions": decision_count(DECISIONS),
        "full_run": full, "apply": applied,
        "ratio_wall": round(applied["wall_s"] / full["wall_s"], 3) if full else None,
        "ratio_cpu": round(applied["cpu_s"] / full["cpu_s"], 3) if full else None,
        "reach": reach(tmx, DECISIONS), "recomputed": report.get("applied"), "full_run_stage_s": full_stages, "apply_stage_s": report["timings_s"],
        "index_update": _index_update(out),
        "audit_after_apply": {k: report["audit"][k] for k in ("clean", "leaked_originals", "seconds")},
    }))


if __name__ == "__main__":
    main()
