"""A large ``corpus.jsonl`` for index and portal benchmarks without running the pipeline:
``python bench/scale_corpus.py OUTDIR N NEWOUT``.

Writes ``NEWOUT/corpus.jsonl`` with N pairs: OUTDIR's pairs over and over, each copy's ids and document
names suffixed (``~2``, ``~3`` ...) so every pair and document is distinct. The text repeats, so the
vocabulary, the stems and the translations table are OUTDIR's (a real corpus of N pairs has more words):
postings lengths, hit counts and stored records grow as with N real pairs, the dictionaries do not.
Then ``paranon index NEWOUT --backend B`` or ``python bench/portal.py NEWOUT --backend B``. Prints one
JSON line.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(source: Path, n: int, target: Path) -> dict:
    lines = (source / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    target.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    written = 0
    with open(target / "corpus.jsonl.tmp", "w", encoding="utf-8") as out:
        copy = 0
        while written < n:
            copy += 1
            chunk = lines[:n - written]
            for line in chunk:
                if copy == 1:
                    out.write(line + "\n")
                    continue
                rec = json.loads(line)
                rec["id"] = f"{rec['id']}~{copy}"
                rec["doc"] = f"{rec['doc']}~{copy}"
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
            written += len(chunk)
    (target / "corpus.jsonl.tmp").rename(target / "corpus.jsonl")
    return {"pairs": written, "copies": copy, "source_pairs": len(lines), "s": round(time.perf_counter() - t0, 1)}


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    print(json.dumps(main(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))))
