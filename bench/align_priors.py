"""eflomal with and without dictionary priors: ``python bench/align_priors.py [--seeds 0 1 2 3 4] [--timing]``.

Scores ``paranon eval align`` on the shared half of the EN-PT Golden Collection (sentences 1-50,
``../shared/data/golden-align-enpt``; PT source, sure links only) for each setting below and each seed
(``anonymize.seed``: eflomal's links change from seed to seed, so one run says little), and prints one JSON
object: per setting the mean, min and max of precision, recall and AER over all links and over the links of
content words (``align/content_words.py``), and eflomal's CPU seconds. The choices made while writing
``align/priors.py`` were made on these 50 pairs: they are tuning figures.

``--timing`` instead times the aligner alone, priors off and on, on the sample TM
(``corpora/samples/sample_pt_en.tmx``) and on the first 2,000 DGT pairs (CPU seconds of this process and its
children, and wall seconds). ``--landing [WORD ...]`` counts where the links of Portuguese content words
land on those 2,000 DGT pairs (no gold: the share that reaches punctuation or an English function word, and
each WORD's top translations).

Settings: ``extra`` is the parallel text eflomal also learns from: none, ``dgt`` (2,167 DGT-TM pairs),
``general`` (the 18,331 general pairs of ``../shared/data/pt-en-parallel``) or ``dgt+general`` (both); ``priors`` is
``align.priors``: ``builtin`` (the default: the Wiktionary pairs and the link counts learnt from those same 18,331
general pairs, ``align/learn_links.py``: with ``general`` text they count it twice), ``wiktionary`` (the
pairs alone: the default before the counts shipped), ``muse`` (the MUSE dictionary, CC BY-NC: compared here,
never shipped).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
GOLD = SHARED / "golden-align-enpt"
DGT = SHARED / "dgt-tm-pt-en"
GENERAL = SHARED / "pt-en-parallel"
MUSE = SHARED / "pt-en-dictionary" / "pt-en.dict.txt"
GENERAL_SETS = ("tatoeba-test-v2021-08-07", "flores200-devtest", "ntrex128-newstest2019", "tico19-test")

SETTINGS = [  # name, extra text, priors
    ("corpus alone", None, None),
    ("corpus alone + wiktionary priors", None, "wiktionary"),
    ("corpus alone + priors", None, "builtin"),
    ("general", "general", None),
    ("general + priors", "general", "builtin"),
    ("dgt", "dgt", None),
    ("dgt + wiktionary priors", "dgt", "wiktionary"),
    ("dgt + priors", "dgt", "builtin"),
    ("dgt + muse priors (compare only)", "dgt", "muse"),
    ("dgt+general", "dgt+general", None),
    ("dgt+general + priors", "dgt+general", "builtin"),
]


def cpu_seconds() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def extra_files(kind: str | None, tmp: Path) -> tuple[str | None, str | None]:
    if kind is None:
        return None, None
    if kind == "dgt":
        return str(DGT / "dgt_pt-en.pt"), str(DGT / "dgt_pt-en.en")
    out = []
    for side in ("pt", "en"):
        path = tmp / f"{kind}.{side}"
        with open(path, "w", encoding="utf-8") as fh:
            if kind.startswith("dgt"):
                fh.write((DGT / f"dgt_pt-en.{side}").read_text(encoding="utf-8"))
            for name in GENERAL_SETS:
                with gzip.open(GENERAL / f"{name}.{side}.gz", "rt", encoding="utf-8") as g:
                    fh.write(g.read())
        out.append(str(path))
    return out[0], out[1]


def summary(values: list[float]) -> dict[str, float]:
    return {"mean": round(statistics.mean(values), 4), "min": round(min(values), 4), "max": round(max(values), 4)}


def score(seeds: list[int], alpha: float, only: list[str] | None) -> dict:
    from paranon.align.evaluate import evaluate_alignment

    from paranon.config import load_config

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra, priors in SETTINGS:
            if only and name not in only:
                continue
            src, tgt = extra_files(extra, Path(tmp))
            runs, cpu = [], []
            for seed in seeds:
                cfg = load_config()
                cfg["align"]["method"] = "eflomal"
                cfg["align"]["priors"] = str(MUSE) if priors == "muse" else priors
                cfg["align"]["prior_alpha"] = alpha
                cfg["anonymize"]["seed"] = seed
                t0 = cpu_seconds()
                runs.append(evaluate_alignment(str(GOLD / "golden_enpt.pt"), str(GOLD / "golden_enpt.en"),
                                               str(GOLD / "golden_enpt.pt-en.sure.align"), cfg, src, tgt))
                cpu.append(cpu_seconds() - t0)
            out[name] = {
                "all": {k: summary([r[k] for r in runs]) for k in ("precision", "recall", "aer")},
                "content_words": {k: summary([r["content_words"][k] for r in runs])
                                  for k in ("precision", "recall", "aer")},
                "cpu_s": summary(cpu),
            }
            print(name, json.dumps(out[name]["all"]["recall"]), file=sys.stderr)
    return {"seeds": seeds, "prior_alpha": alpha, "pairs": 50, "settings": out}


def timing(repeat: int) -> dict:
    from paranon.align.aligners import make_aligner
    from paranon.corpora.formats import read_corpus
    from paranon.corpora.formats.common import Problems

    from paranon.config import load_config
    from paranon.text import token_words

    sample = HERE.parent / "corpora" / "samples" / "sample_pt_en.tmx"
    sample_pairs = [(token_words(p.src), token_words(p.tgt)) for p in read_corpus(sample, "pt", "en", Problems())]
    with open(DGT / "dgt_pt-en.pt", encoding="utf-8") as fs, open(DGT / "dgt_pt-en.en", encoding="utf-8") as ft:
        dgt_pairs = [(token_words(s), token_words(t)) for s, t in zip(fs, ft, strict=True)][:2000]
    out = {}
    for name, pairs in (("sample", sample_pairs), ("dgt_2000", dgt_pairs)):
        for priors in (None, "wiktionary", "builtin"):
            cfg = load_config()
            cfg["align"]["method"] = "eflomal"
            cfg["align"]["priors"] = priors
            cpu, wall = [], []
            for _ in range(repeat):
                aligner, _ = make_aligner(cfg)
                t0, w0 = cpu_seconds(), time.perf_counter()
                aligner.align(pairs)
                cpu.append(cpu_seconds() - t0)
                wall.append(time.perf_counter() - w0)
            out[f"{name}, priors {priors or 'off'}"] = {"pairs": len(pairs), "cpu_s": summary(cpu),
                                                       "wall_s": summary(wall)}
    return out


def landing(words: list[str], seeds: list[int]) -> dict:
    """Where the links of Portuguese content words land on the first 2,000 DGT pairs (no gold needed), per
    seed: the share of those links whose English end is punctuation or a function word (the portal would
    highlight ``the`` or ``,``), and the English words linked to each of ``words`` summed over the seeds,
    and the share of its tokens that have any link, priors off and on."""
    from collections import Counter

    from paranon.align.aligners import make_aligner
    from paranon.align.content_words import is_content_word

    from paranon.config import load_config
    from paranon.text import token_words

    with open(DGT / "dgt_pt-en.pt", encoding="utf-8") as fs, open(DGT / "dgt_pt-en.en", encoding="utf-8") as ft:
        pairs = [(token_words(s), token_words(t)) for s, t in zip(fs, ft, strict=True)][:2000]
    out = {}
    for priors in (None, "builtin"):
        astray_share = []
        top: dict[str, Counter] = {w: Counter() for w in words}
        seen, linked = Counter(), Counter()  # tokens of each of ``words``, and those with a link at all
        for seed in seeds:
            cfg = load_config()
            cfg["align"].update(method="eflomal", priors=priors)
            cfg["anonymize"]["seed"] = seed
            aligner, _ = make_aligner(cfg)
            content = astray = 0
            for (src, tgt), links in zip(pairs, aligner.align(pairs), strict=True):
                has_link = {i for i, _ in links}
                for i, w in enumerate(src):
                    if w.lower() in top:
                        seen[w.lower()] += 1
                        linked[w.lower()] += i in has_link
                for i, j in links:
                    if not is_content_word(src[i], "pt"):
                        continue
                    content += 1
                    astray += not is_content_word(tgt[j], "en")
                    if src[i].lower() in top:
                        top[src[i].lower()][tgt[j].lower()] += 1
            astray_share.append(astray / content)
            print(f"priors {priors or 'off'}, seed {seed}: {astray / content:.4f}", file=sys.stderr)
        out[f"priors {priors or 'off'}"] = {
            "content_word_links_to_function_word_or_punctuation": summary(astray_share),
            "top": {w: c.most_common(5) for w, c in top.items()},
            "linked_share": {w: round(linked[w] / seen[w], 4) if seen[w] else None for w in words}}
    return {"pairs": len(pairs), "seeds": seeds, **out}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--alpha", type=float, default=None, help="align.prior_alpha (default: the shipped default)")
    ap.add_argument("--only", nargs="*", help="setting names to run")
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--landing", nargs="*", metavar="WORD",
                    help="where content-word links land on 2,000 DGT pairs; the top translations of WORDs")
    args = ap.parse_args()
    os.environ.setdefault("PYTHONHASHSEED", "0")
    if args.landing is not None:
        print(json.dumps(landing([w.lower() for w in args.landing], args.seeds), indent=1, ensure_ascii=False))
        return
    if args.timing:
        print(json.dumps(timing(args.repeat), indent=1))
        return
    from paranon.config import load_config

    alpha = args.alpha if args.alpha is not None else float(load_config()["align"]["prior_alpha"])
    print(json.dumps(score(args.seeds, alpha, args.only), indent=1))


if __name__ == "__main__":
    main()
