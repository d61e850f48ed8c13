"""paranon's anonymize stage against Presidio on the same Portuguese segments, measured in one run.

    python3 -m venv .presidio && .presidio/bin/pip install presidio-analyzer presidio-anonymizer
    python bench/presidio_compare.py --presidio-python .presidio/bin/python [--segments 5000]

Presidio is installed only in that separate environment (it is not a paranon dependency); its side runs
``bench/presidio_worker.py`` there. The segments are the Portuguese side of a corpus made by
``bench/make_corpus.py`` (or ``--tmx FILE``). paranon is timed twice: its default recognizers (all five
categories, with the PERSON/ORGANIZATION chain rules) and only its NAMEID and DATE recognizers (the
categories Presidio is configured for). Each side's time is the best of ``--repeat`` passes.
Prints one JSON object with segments per second and the ratios.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _paranon(pairs: list, recognizers: list[str] | None, repeat: int) -> dict:
    from paranon.anonymize.engine import Anonymizer

    from paranon.config import load_config
    from paranon.stage_common import documents

    cfg = load_config()
    if recognizers:
        cfg["anonymize"]["recognizers"] = recognizers
    an = Anonymizer(cfg)
    docs = list(documents(pairs))
    best, found = float("inf"), 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        found = sum(len(ms) for d in docs for ms, _ in an.anonymize_document(d))
        best = min(best, time.perf_counter() - t0)
    return {"seconds": round(best, 3), "segments": len(pairs), "entities": found,
            "segments_per_s": round(len(pairs) / best)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presidio-python", required=True, help="python of the environment with Presidio")
    ap.add_argument("--segments", type=int, default=5000)
    ap.add_argument("--tmx", help="take the segments from this TMX instead of generating them")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from paranon.corpora.formats.tmx import read_tmx

    with tempfile.TemporaryDirectory(prefix="paranon-presidio-") as tmp:
        tmx = args.tmx
        if not tmx:
            tmx = str(Path(tmp) / "corpus.tmx")
            subprocess.run([sys.executable, str(ROOT / "bench" / "make_corpus.py"), str(args.segments), tmx],
                           check=True, stdout=subprocess.DEVNULL)
        pairs = []
        for p in read_tmx(tmx, "pt", "en", []):
            pairs.append(p)
            if len(pairs) >= args.segments:
                break
        seg_file = Path(tmp) / "segments.txt"
        seg_file.write_text("".join(p.src.replace("\n", " ") + "\n" for p in pairs), encoding="utf-8")
        out = subprocess.run([args.presidio_python, str(ROOT / "bench" / "presidio_worker.py"), str(seg_file),
                              "--repeat", str(args.repeat)], check=True, capture_output=True, text=True)
        presidio = json.loads(out.stdout)
    presidio["segments_per_s"] = round(presidio["segments"] / presidio["seconds"])
    full = _paranon(pairs, None, args.repeat)
    same = _paranon(pairs, ["nameid", "date"], args.repeat)
    print(json.dumps({
        "segments": len(pairs),
        "presidio_nameid_date": presidio,
        "paranon_all_categories": full,
        "paranon_nameid_date": same,
        "ratio_paranon_all_over_presidio": round(full["segments_per_s"] / presidio["segments_per_s"], 2),
        "ratio_paranon_nameid_date_over_presidio": round(same["segments_per_s"] / presidio["segments_per_s"], 2),
    }))


if __name__ == "__main__":
    main()
