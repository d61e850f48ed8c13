"""Generate a realistic N-pair PT-EN translation memory for benchmarks: ``python bench/make_corpus.py N OUT.tmx``.

Two kinds of documents, interleaved: contracts built from the sample corpus's templates with fresh
names, companies, numbers and dates for every document (Faker pt_PT names, random NIF/IBAN/phones, so
no cache can learn a fixed set of entities), and real EU DGT-TM segments (``../shared/data/dgt-tm-pt-en``)
whose numbers are re-drawn. Written as a stream, so N = 1,000,000 needs no memory. Prints one JSON line.
"""

from __future__ import annotations

import json
import random
import re
import sys
import time
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DGT = ROOT.parent / "shared" / "data" / "dgt-tm-pt-en"


def _dgt_pairs() -> list[tuple[str, str]]:
    pt, en = DGT / "dgt_pt-en.pt", DGT / "dgt_pt-en.en"
    if not pt.exists():
        print(f"make_corpus: {pt} not found: contracts only, no DGT text (figures are not comparable)",
              file=sys.stderr)
        return []
    with open(pt, encoding="utf-8") as fp, open(en, encoding="utf-8") as fe:
        return [(a.strip(), b.strip()) for a, b in zip(fp, fe, strict=False) if a.strip() and b.strip()]


DIGIT = re.compile(r"\d")


def _redraw(src: str, tgt: str, rng: random.Random) -> tuple[str, str]:
    """New digits, the same sequence on both sides, so numbers still match across the languages."""
    drawn = [str(rng.randrange(10)) for _ in DIGIT.findall(src)]
    it_s, it_t = iter(drawn), iter(drawn)
    return (DIGIT.sub(lambda _m: next(it_s), src),
            DIGIT.sub(lambda _m: next(it_t, str(rng.randrange(10))), tgt))


def main(n: int, out: Path, seed: int = 1) -> dict:
    from faker import Faker

    from corpora.samples import make_sample as ms

    rng = random.Random(seed)
    fake = Faker("pt_PT")
    fake.seed_instance(seed)
    dgt = _dgt_pairs()
    t0 = time.perf_counter()
    written = docs = 0
    with open(out, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header creationtool="paranon-bench" '
                 'creationtoolversion="1" segtype="sentence" o-tmf="paranon" adminlang="en" srclang="pt-PT" '
                 'datatype="plaintext"/>\n<body>\n')

        def tu(uid: str, doc: str, src: str, tgt: str) -> None:
            fh.write(f'<tu tuid={quoteattr(uid)}>\n  <prop type="doc">{escape(doc)}</prop>\n'
                     f'  <tuv xml:lang="pt-PT"><seg>{escape(src)}</seg></tuv>\n'
                     f'  <tuv xml:lang="en-GB"><seg>{escape(tgt)}</seg></tuv>\n</tu>\n')

        while written < n:
            docs += 1
            if docs % 2 or not dgt:
                # a contract with its own cast: fresh people and companies for each document
                ms.PEOPLE = [(fake.first_name_female() if g == "f" else fake.first_name_male(), fake.last_name(),
                              fake.last_name(), g) for g in (rng.choice("fm") for _ in range(8))]
                ms.COMPANIES = [(f"{fake.last_name()} {rng.choice(['Engenharia', 'Seguros', 'Logística', 'Capital'])}",
                                 rng.choice(["S.A.", "Lda.", "SGPS, S.A.", "Unipessoal, Lda.", "GmbH", "Ltd"]))
                                for _ in range(4)]
                records, _ = ms.build(n_docs=1, seed=rng.randrange(1 << 30))
                for r in records:
                    if written >= n:
                        break
                    tu(f"B{docs}:{r['id']}", f"BENCH-{docs:07d}", r["src"], r["tgt"])
                    written += 1
            else:
                start = rng.randrange(len(dgt))
                for k in range(min(40, n - written)):
                    s, t = dgt[(start + k) % len(dgt)]
                    s2, t2 = _redraw(s, t, rng)
                    tu(f"D{docs}:{k}", f"DGT-{docs:07d}", s2, t2)
                    written += 1
        fh.write("</body>\n</tmx>\n")
    return {"pairs": written, "documents": docs, "dgt_text": bool(dgt), "file": str(out), "bytes": out.stat().st_size,
            "seconds": round(time.perf_counter() - t0, 2)}


if __name__ == "__main__":
    if len(sys.argv) != 3 or not sys.argv[1].isdigit():
        sys.exit("usage: python bench/make_corpus.py N OUT.tmx")
    print(json.dumps(main(int(sys.argv[1]), Path(sys.argv[2]))))
