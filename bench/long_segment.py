"""CPU time of anonymize + transfer on one long, entity-dense segment (the sample's contract units end to end),
per size: ``python bench/long_segment.py 0.1 0.2 0.4`` (megabytes). Prints one JSON object.

Alignment is left out (no links: eflomal has its own sentence-length cap); the run's own limit
(``input.max_segment_chars``) is not applied, so this measures the stages themselves.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from paranon.align.finish import Finisher  # noqa: E402
from paranon.anonymize.anonymized import anonymize_docs  # noqa: E402
from paranon.anonymize.engine import Anonymizer  # noqa: E402
from paranon.corpora.formats import Problems, read_corpus  # noqa: E402
from paranon.corpora.model import SegmentPair  # noqa: E402

from paranon.config import load_config  # noqa: E402

SAMPLE = ROOT / "corpora" / "samples" / "sample_pt_en.tmx"


def long_pair(pairs: list[SegmentPair], chars: int) -> SegmentPair:
    src, tgt, n, i = [], [], 0, 0
    while n < chars:
        p = pairs[i % len(pairs)]
        src.append(p.src)
        tgt.append(p.tgt)
        n += len(p.src) + 1
        i += 1
    return SegmentPair(id="long", doc="long", src=" ".join(src), tgt=" ".join(tgt))


def main(sizes_mb: list[float]) -> dict:
    cfg = load_config()
    anonymizer = Anonymizer(cfg)
    pairs = list(read_corpus(SAMPLE, "pt", "en", Problems()))
    out = {}
    for mb in [0.001, *sizes_mb]:  # the first warms the lexicons and caches
        pair = long_pair(pairs, int(mb * 1_000_000))
        t0 = time.process_time()
        [it] = anonymize_docs(anonymizer, [[pair]])
        t1 = time.process_time()
        finisher = Finisher(anonymizer, "pt", "en")
        tr, scope = finisher.transfer(it, [], {}, None)
        finisher.replace(it, [], tr, scope)
        t2 = time.process_time()
        if mb >= 0.01:
            out[f"{mb} MB"] = {"chars": len(pair.src), "mentions": len(it.mentions), "anonymize_cpu_s": round(t1 - t0, 2),
                               "transfer_cpu_s": round(t2 - t1, 2)}
    return out


if __name__ == "__main__":
    print(json.dumps(main([float(x) for x in sys.argv[1:]] or [0.1, 0.2, 0.4])))
