"""How many lines of a run's Pharaoh links fit the white-space words of its Moses files.

    python bench/pharaoh_fit.py OUTDIR

Compares, line by line with ``corpus.SRC``/``corpus.TGT``, the links of ``corpus.jsonl`` (over paranon's
tokens: what ``alignments.pharaoh`` held before it was moved onto words) and the shipped
``alignments.pharaoh``: a line fits when every ``i-j`` names an existing word of both lines (``str.split``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def fits(src: str, tgt: str, links: str) -> bool:
    ns, nt = len(src.split()), len(tgt.split())
    return all(int(i) < ns and int(j) < nt for i, j in (x.split("-") for x in links.split()))


def main(out: Path) -> dict[str, int]:
    recs = [json.loads(x) for x in (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    src_lang, tgt_lang = (recs[0]["src_lang"], recs[0]["tgt_lang"]) if recs else ("pt", "en")
    src, tgt, shipped = ((out / name).read_text(encoding="utf-8").split("\n")[:-1]
                         for name in (f"corpus.{src_lang}", f"corpus.{tgt_lang}", "alignments.pharaoh"))
    return {"lines": len(src),
            "token_links_fit": sum(fits(s, t, r["alignment"]) for s, t, r in zip(src, tgt, recs, strict=True)),
            "shipped_links_fit": sum(fits(s, t, a) for s, t, a in zip(src, tgt, shipped, strict=True))}


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]))))
