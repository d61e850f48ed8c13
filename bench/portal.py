"""Portal latency: ``python bench/portal.py OUTDIR [--seconds 20]``.

Starts ``paranon serve OUTDIR`` on a free port, then runs a mix of single-word, phrase and wildcard
queries against ``/api/search`` with 1 and 8 concurrent clients, and prints one JSON object with p50/p95
latency (ms) and requests/s per concurrency: once with the server's search cache off (``--cache 0``: every
request is a full search, the figure that matters) and once with its default cache. Build OUTDIR first, e.g. ``bench/pipeline.py --keep``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
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


def _load(base: str, clients: int, seconds: float) -> dict:
    """``clients`` threads, each with one kept-alive HTTP connection (as a browser keeps one), sending the
    query mix for ``seconds``; latency is from sending a request to having read the whole response."""
    lat: list[float] = []
    lock = threading.Lock()
    stop = time.time() + seconds
    host, port = urllib.parse.urlsplit(base).netloc.split(":")

    def worker(k: int) -> None:
        i = k
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        while time.time() < stop:
            q = QUERIES[i % len(QUERIES)]
            i += clients
            t0 = time.perf_counter()
            conn.request("GET", f"/api/search?q={urllib.parse.quote(q)}&lang=both")
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                raise SystemExit(f"{q}: HTTP {r.status}")
            with lock:
                lat.append((time.perf_counter() - t0) * 1000)
        conn.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lat.sort()
    return {"clients": clients, "requests": len(lat), "rps": round(len(lat) / seconds, 1),
            "p50_ms": round(statistics.median(lat), 1), "p95_ms": round(lat[int(0.95 * (len(lat) - 1))], 1)}


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--seconds", type=float, default=20)
    args = ap.parse_args()
    out: dict = {"queries": len(QUERIES), "cores": os.cpu_count()}
    # cache 0: every request searches and highlights afresh (the cost of a new query);
    # cache 128: the server's default, where a repeated query (next page, a translation filter) is remembered
    for cache in (0, 128):
        server, base = _serve(args.outdir, cache)
        try:
            _load(base, 8, 3)  # warm-up: every server process opens the index
            out.setdefault("pairs", json.loads(urllib.request.urlopen(f"{base}/api/stats").read())["pairs"])
            out[f"cache_{cache}"] = [_load(base, c, args.seconds) for c in (1, 8)]
        finally:
            server.terminate()
            server.wait()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
