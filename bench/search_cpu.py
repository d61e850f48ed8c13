"""CPU time per search, in process: ``python bench/search_cpu.py OUTDIR [--rounds 5]``.

``bench/portal.py``'s query mix through ``Searcher.search`` with the cache off, one thread, each search
timed by the thread's CPU clock: the figure least moved by other work on a shared machine (latencies
through the server are not). Prints one JSON object: the index's backend, pairs, and the median, p95 and
mean CPU milliseconds per search, with the slowest queries.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from portal import QUERIES  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    from paranon.search_portal.backends import backend_of
    from paranon.search_portal.search import Searcher

    s = Searcher(args.outdir, cache_size=0)
    for q in QUERIES:  # warm: the index opened, the parsers made
        s.search(q)
    per: dict[str, list[float]] = {q: [] for q in QUERIES}
    for _ in range(args.rounds):
        for q in QUERIES:
            t = time.thread_time()
            s.search(q)
            per[q].append((time.thread_time() - t) * 1000)
    every = sorted(x for v in per.values() for x in v)
    slowest = sorted(((statistics.median(v), q) for q, v in per.items()), reverse=True)[:5]
    print(json.dumps({"backend": backend_of((args.outdir / "index").resolve()), "pairs": s.stats()["pairs"],
                      "searches": len(every), "cpu_ms_median": round(statistics.median(every), 2),
                      "cpu_ms_p95": round(every[int(0.95 * (len(every) - 1))], 2),
                      "cpu_ms_mean": round(statistics.mean(every), 2),
                      "slowest": {q: round(m, 2) for m, q in slowest}}, ensure_ascii=False))


if __name__ == "__main__":
    main()
