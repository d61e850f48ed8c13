"""Leak audit of an output folder: ``python bench/audit.py OUTDIR`` (e.g. the folder of a 40,000-pair run).

Runs ``paranon.audit.audit`` on OUTDIR once and prints one JSON object: the pairs in ``corpus.jsonl``, the
originals looked for, the bytes of the public files, wall and CPU seconds, and whether the folder is clean.
No original is printed.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--workers", type=int, default=1, help="processes scanning the files (paranon run: its workers)")
    args = ap.parse_args()

    from paranon.audit import audit, public_sources

    with open(args.outdir / "corpus.jsonl", encoding="utf-8") as fh:
        pairs = sum(1 for _ in fh)
    sources, _ = public_sources(args.outdir)
    size = sum(p.stat().st_size for p in args.outdir.resolve().rglob("*")
               if p.is_file() and p.name != "keys.sqlite" and ".work" not in p.parts)
    wall, cpu = time.perf_counter(), _cpu()
    res = audit(args.outdir, workers=args.workers)
    print(json.dumps({"pairs": pairs, "originals": res.originals, "public_sources": len(sources),
                      "public_bytes": size, "wall_s": round(time.perf_counter() - wall, 2),
                      "cpu_s": round(_cpu() - cpu, 2), "workers": args.workers, "clean": res.clean,
                      "leak_hits": sum(res.leaks.values()), "also_public_hits": sum(res.public.values())}))


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the scanning processes)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


if __name__ == "__main__":
    main()
