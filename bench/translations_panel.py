"""The translations panel on a finished run: ``python bench/translations_panel.py OUTDIR [--json]``.

Searches each Portuguese word of ``WORDS`` in OUTDIR's index, in process and read-only (the portal's own
``Searcher``), and prints one row per word: its hits, the panel's top three translations with their share
of all hits, the share not aligned, whether the top translation is one of the translations accepted for it
(``WORDS``, case-folded), and whether punctuation or a bare function word (``align/data/function_words.yaml``)
is among the top three. The last line counts both; issue 21 asks for at least 18 of 20 correct and no
punctuation or function word in any top three.

``WORDS`` are the 20 most frequent nouns of the DGT-TM sample (``../shared/data/dgt-tm-pt-en/original_tmx``,
counted over its Portuguese side), with the translations a translator would accept, written down before
their panels were looked at.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

WORDS = {  # word -> accepted translations (folded)
    "regulamento": ["regulation"],
    "comissão": ["commission"],
    "artigo": ["article"],
    "acordo": ["agreement"],
    "decisão": ["decision"],
    "execução": ["implementing", "implementation", "execution", "enforcement"],
    "comité": ["committee"],
    "partes": ["parties"],
    "conselho": ["council"],
    "anexo": ["annex"],
    "parte": ["party", "part"],
    "requisitos": ["requirements"],
    "disposições": ["provisions"],
    "painel": ["panel"],
    "aviação": ["aviation"],
    "artigos": ["articles"],
    "data": ["date"],
    "regras": ["rules"],
    "procedimentos": ["procedures"],
    "diretiva": ["directive"],
}


def stray(text: str, words) -> bool:
    """Punctuation or function words only: nothing a translator would call a translation."""
    from paranon.text import token_words

    return not any(words.content(w) for w in token_words(text))


def rows(outdir: Path) -> list[dict]:
    from paranon.search_portal.search import Searcher
    from paranon.search_portal.translations import Words

    from paranon.text import phrase_key

    searcher = Searcher(outdir, cache_size=0)
    english = Words("en")
    out = []
    for word, accepted in WORDS.items():
        got = searcher.search(word, "pt", per_page=1)
        top = got["translations"][:3]
        out.append({"word": word, "hits": got["total"],
                    "top3": [(t["text"], t["share"]) for t in top],
                    "not_aligned": got["translations_not_aligned"]["share"],
                    "correct": bool(top) and phrase_key(top[0]["text"]) in accepted,
                    "stray_in_top3": [t["text"] for t in top if stray(t["text"], english)],
                    "sampled": got["translations_sampled"]})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if not (args.outdir / "index").exists():
        sys.exit(f"{args.outdir}: no index (a paranon run's output folder)")
    table = rows(args.outdir)
    correct = sum(r["correct"] for r in table)
    strays = sum(bool(r["stray_in_top3"]) for r in table)
    if args.json:
        print(json.dumps({"rows": table, "correct": correct, "words": len(table), "stray_top3": strays},
                         ensure_ascii=False, indent=1))
        return
    print(f"{'word':<15}{'hits':>6}  {'top 3 (share of all hits)':<70}{'n/a':>6}  ok")
    for r in table:
        top = " | ".join(f"{t} {s:.0%}" for t, s in r["top3"])
        flag = ("yes" if r["correct"] else "NO") + (f"  stray: {r['stray_in_top3']}" if r["stray_in_top3"] else "")
        print(f"{r['word']:<15}{r['hits']:>6}  {top:<70}{r['not_aligned']:>6.0%}  {flag}")
    print(f"top translation correct: {correct}/{len(table)}; punctuation or function word in a top 3: {strays}")


if __name__ == "__main__":
    main()
