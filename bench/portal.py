"""Portal latency: ``python bench/portal.py OUTDIR [--seconds 20] [--mixes quiet cached attack] [--backend B ...]``.

With ``--backend tantivy whoosh`` (one or both), OUTDIR's ``corpus.jsonl`` is indexed afresh with each
backend in turn in a scratch folder (``paranon index``; OUTDIR is not touched), the build's wall time, CPU
time and index size are reported, and the server then searches that index: one JSON object with the
backends side by side (``backends``: one entry per backend, in the order given), each figure with the
machine's load average (1 minute) when it was taken, as the machine may be shared. Each backend's figures
are also printed to stderr as soon as they are measured. With ``--index-dir DIR`` the indexes are built in
``DIR/BACKEND`` and kept, their build figures beside them (``build.json``); a later run with the same
``DIR`` and the same corpus measures the latencies again without rebuilding, and reports the kept build
figures (``"reused": true``).

Starts ``paranon serve OUTDIR`` on a free port, then runs a mix of single-word, phrase and wildcard
queries against ``/api/search`` with 1 and 8 concurrent clients, and prints one JSON object with p50/p95
latency (ms) and requests/s per concurrency: once with the server's search cache off (``--cache 0``: every
request is a full search, the figure that matters) and once with its default cache. Build OUTDIR first, e.g. ``bench/pipeline.py --keep``.

The ``attack`` mix (cache off) measures what the work budget protects: 8 clients send the ordinary mix
while 4 more send the worst wildcard queries, first the issue's (36 ``*x*y*`` wildcards,
refused by the budget before any work), then the heaviest ones the budget lets through (wildcards matching
hundreds of words). It reports the 8 ordinary clients' p50/p95 beside their figures without the 4 (the
``quiet`` 8-client run of the same server), their ratio, and what the attackers got (HTTP statuses, p50).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

QUERIES = ["contrato", "conta", "pagamento", "banco", "taxa", "comissão", "prazo", "regulamento", "Estados-Membros",
           '"taxa de juro"', '"do presente regulamento"', '"por escrito"', "comiss*", "pag*", "contrat?",
           "agreement", "account", '"shall apply"', "regulat*", "bank"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# the issue's query shape: 36 wildcards *x*y* (here joined by OR: 320 characters)
ISSUE_WORST = " OR ".join(f"*{a}*{b}*" for a, b in zip(("aeiou" * 8)[:36], "rstnlrst" * 5, strict=False))
# the heaviest the default budget lets through on the bench corpus: up to 4 wildcards matching hundreds of
# index words together (the ones matching more are refused; which ones pass depends on the corpus)
HEAVY = ["co*", "*ção *ity *ing *dos", "*ção* *ity", "*ment*", "*i*g*", "re* *ção", "*dos *ing"]


def _percentiles(lat: list[float]) -> dict:
    lat = sorted(lat)
    if not lat:
        return {"requests": 0}
    return {"requests": len(lat), "p50_ms": round(statistics.median(lat), 1),
            "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1)}


def _load(base: str, clients: int, seconds: float, attackers: int = 0, attack: list[str] | None = None) -> dict:
    """``clients`` threads, each with one kept-alive HTTP connection (as a browser keeps one), sending the
    query mix for ``seconds``; latency is from sending a request to having read the whole response. With
    ``attackers``, as many more threads send the ``attack`` queries meanwhile (a 400 is what they should
    get); the figures are the ordinary clients', the attackers' apart."""
    lat: list[float] = []
    bad: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.time() + seconds
    host, port = urllib.parse.urlsplit(base).netloc.split(":")

    def worker(k: int, queries: list[str], out: list[float], must_pass: bool) -> None:
        i = k
        conn = http.client.HTTPConnection(host, int(port), timeout=120)
        while time.time() < stop:
            q = queries[i % len(queries)]
            i += 1 if not must_pass else clients
            t0 = time.perf_counter()
            conn.request("GET", f"/api/search?q={urllib.parse.quote(q)}&lang=both")
            r = conn.getresponse()
            r.read()
            if must_pass and r.status != 200:
                raise SystemExit(f"{q}: HTTP {r.status}")
            with lock:
                out.append((time.perf_counter() - t0) * 1000)
                if not must_pass:
                    statuses[r.status] = statuses.get(r.status, 0) + 1
        conn.close()

    threads = [threading.Thread(target=worker, args=(k, QUERIES, lat, True)) for k in range(clients)]
    threads += [threading.Thread(target=worker, args=(k, attack or [], bad, False)) for k in range(attackers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out = {"clients": clients, "rps": round(len(lat) / seconds, 1), **_percentiles(lat), "load": _load_avg()}
    if attackers:
        out["attackers"] = {"clients": attackers, "statuses": statuses, **_percentiles(bad)}
    return out


def _load_avg() -> float | None:
    """The 1-minute load average now (None where the system has none): said beside every figure."""
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def _serve(outdir: Path, cache: int) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "paranon.cli", "serve", str(outdir), "--port", str(port),
                               "--cache", str(cache)], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/api/search?q=a").read()
            break
        except OSError:
            time.sleep(0.1)
    return server, base


def _corpus_id(corpus: Path) -> list:
    st = corpus.stat()
    return [str(corpus), st.st_size, st.st_mtime_ns]


def _build(outdir: Path, backend: str, index_dir: Path | None = None) -> tuple[Path, dict]:
    """OUTDIR's corpus indexed with ``backend`` in a scratch folder (the corpus linked, not copied), or in
    ``index_dir/backend``, kept and reused while the corpus is the same."""
    corpus = (outdir / "corpus.jsonl").resolve()
    if index_dir is not None:
        scratch = index_dir / backend
        saved = scratch / "build.json"
        if saved.exists() and (scratch / "index").exists():
            built = json.loads(saved.read_text(encoding="utf-8"))
            if built.pop("corpus", None) == _corpus_id(corpus):
                return scratch, {**built, "reused": True}
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir(parents=True)
    else:
        scratch = Path(tempfile.mkdtemp(prefix=f"paranon-bench-{backend}-"))
    (scratch / "corpus.jsonl").symlink_to(corpus)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    load = _load_avg()
    subprocess.run([sys.executable, "-m", "paranon.cli", "index", str(scratch), "--backend", backend, "--quiet"],
                   check=True, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    folder = (scratch / "index").resolve()
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    built = {"backend": backend, "build_s": round(wall, 1),
             "build_cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
             "index_mb": round(size / 2**20, 1), "load_before": load, "load_after": _load_avg(),
             "phases_s": json.loads((folder / "backend.json").read_text(encoding="utf-8")).get("build_s")}
    if index_dir is not None:
        (scratch / "build.json").write_text(json.dumps({**built, "corpus": _corpus_id(corpus)}), encoding="utf-8")
    return scratch, built


def _measure(outdir: Path, mixes: list[str], seconds: float) -> dict:
    """The latency mixes against a server over ``outdir``'s index."""
    out: dict = {}
    # cache 0: every request searches and highlights afresh (the cost of a new query);
    # cache 128: the server's default, where a repeated query (next page, a translation filter) is remembered
    for cache in (0, 128):
        if cache == 0 and not {"quiet", "attack"} & set(mixes) or cache and "cached" not in mixes:
            continue
        server, base = _serve(outdir, cache)
        try:
            _load(base, 8, 3)  # warm-up: every server process opens the index
            out.setdefault("pairs", json.loads(urllib.request.urlopen(f"{base}/api/stats").read())["pairs"])
            if cache or "quiet" in mixes:
                out[f"cache_{cache}"] = [_load(base, c, seconds) for c in (1, 8)]
            if not cache and "attack" in mixes:
                quiet = out["cache_0"][1] if "cache_0" in out else _load(base, 8, seconds)
                runs = {name: _load(base, 8, seconds, 4, queries)
                        for name, queries in (("issue_query", [ISSUE_WORST]), ("heaviest_allowed", HEAVY))}
                out["attack"] = {"quiet_8_clients": quiet, **{
                    name: {**run, "p95_vs_quiet": round(run["p95_ms"] / quiet["p95_ms"], 2)}
                    for name, run in runs.items()}}
        finally:
            server.terminate()
            server.wait()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--mixes", nargs="+", choices=["quiet", "cached", "attack"], default=["quiet", "cached", "attack"],
                    help="quiet: cache off, 1 and 8 clients; cached: the same with the default cache; attack: "
                         "cache off, 8 clients beside 4 sending the worst wildcard queries")
    ap.add_argument("--backend", nargs="+", choices=["whoosh", "tantivy"], help="index OUTDIR's corpus afresh "
                    "with each of these backends in turn and measure each (default: serve OUTDIR's own index)")
    ap.add_argument("--index-dir", type=Path, help="build the indexes in DIR/BACKEND and keep them; reuse them "
                    "(and their build figures) while OUTDIR's corpus is the same")
    args = ap.parse_args()
    out: dict = {"queries": len(QUERIES), "cores": os.cpu_count()}
    if not args.backend:
        out.update(_measure(args.outdir, args.mixes, args.seconds))
    else:
        out["backends"] = []
        for backend in dict.fromkeys(args.backend):
            scratch, built = _build(args.outdir, backend, args.index_dir)
            print(json.dumps({"index": built}), file=sys.stderr, flush=True)
            try:
                out["backends"].append({"index": built, **_measure(scratch, args.mixes, args.seconds)})
                print(json.dumps(out["backends"][-1]), file=sys.stderr, flush=True)
            finally:
                if args.index_dir is None:
                    shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
