"""The shipped link counts (``data/links_pt_en.tsv.gz``): what eflomal learns from general parallel text, kept
so that a small translation memory aligns as if that text had been there (see ``priors.py``).

``python -m paranon.align.learn_links DIR OUT.tsv.gz`` aligns the line-aligned ``DIR/NAME.pt.gz`` and
``DIR/NAME.en.gz`` files (``../shared/data/pt-en-parallel``: 18,331 pairs under CC BY 2.0 FR, CC BY-SA 4.0
and CC0) with paranon's default eflomal settings, the Wiktionary pairs as priors (never the counts
themselves), seed 0, and writes ``pt<TAB>en<TAB>count`` for every pair of lower-cased words linked at least
``MIN_LINK_COUNT`` times, sorted, after the licence lines, gzip-compressed without a timestamp: the same
text always gives the same file.
"""

from __future__ import annotations

import gzip
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ..config import load_config
from ..corpora.formats import atomic_write
from ..text import token_words
from .aligners import make_aligner
from .priors import MIN_LINK_COUNT

LICENCE_LINES = (
    "# licence: CC BY-SA 4.0 (creativecommons.org/licenses/by-sa/4.0). Word-link counts learnt by paranon's eflomal",
    "# aligner (paranon.align.learn_links) from: Tatoeba test v2021-08-07 (tatoeba.org, CC BY 2.0 FR),",
    "# FLORES-200 devtest (NLLB Team 2022, CC BY-SA 4.0), NTREX-128 newstest2019 (Federmann et al. 2022,",
    "# CC BY-SA 4.0), TICO-19 test (Anastasopoulos et al. 2020, CC0 1.0), via Helsinki-NLP/OPUS-MT-testsets",
    "# and MicrosoftTranslator/NTREX. Columns: pt, en, times linked.",
)


def read_pairs(folder: Path, src: str = "pt", tgt: str = "en") -> list[tuple[list[str], list[str]]]:
    """The tokenized pairs of every ``NAME.src.gz``/``NAME.tgt.gz`` in ``folder``, by name."""
    pairs = []
    for path in sorted(folder.glob(f"*.{src}.gz")):
        other = path.with_name(path.name[:-len(f".{src}.gz")] + f".{tgt}.gz")
        with gzip.open(path, "rt", encoding="utf-8") as fs, gzip.open(other, "rt", encoding="utf-8") as ft:
            pairs.extend((token_words(s), token_words(t)) for s, t in zip(fs, ft, strict=True))
    return pairs


def count_links(pairs: list[tuple[list[str], list[str]]], seed: int = 0) -> Counter:
    """How often each pair of lower-cased words is linked, aligned with the default settings and the
    Wiktionary priors."""
    cfg = load_config()
    cfg["align"].update(method="eflomal", priors="wiktionary", priors_max_pairs=0)
    cfg["anonymize"]["seed"] = seed
    aligner, _ = make_aligner(cfg)
    counts: Counter = Counter()
    for (s, t), links in zip(pairs, aligner.align(pairs), strict=True):
        counts.update((s[i].lower(), t[j].lower()) for i, j in links)
    return counts


def write_counts(counts: Counter, out: Path, min_count: int = MIN_LINK_COUNT) -> int:
    """Write the counts of at least ``min_count``; returns the number of pairs written."""
    # a tab would split a line, and a first word opening with "#" would be read back as a comment (priors.py)
    kept = sorted((a, b, n) for (a, b), n in counts.items()
                  if n >= min_count and "\t" not in a + b and not a.startswith("#"))
    with atomic_write(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) as gz:
        gz.write("".join(line + "\n" for line in LICENCE_LINES).encode("utf-8"))
        gz.write("".join(f"{a}\t{b}\t{n}\n" for a, b, n in kept).encode("utf-8"))
    return len(kept)


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m paranon.align.learn_links PARALLEL_DIR OUT.tsv.gz", file=sys.stderr)
        return 2
    pairs = read_pairs(Path(args[0]))
    n = write_counts(count_links(pairs), Path(args[1]))
    print(f"{args[1]}: {n} pairs from {len(pairs)} sentence pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
