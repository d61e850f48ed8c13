"""What a searched word is translated as: one hit's aligned words, and the index's table of them.

A hit's translation is the other side's words aligned to its hit words (from the stored word alignment,
over ``paranon.align.transfer.tokenize`` tokens). The translations panel counts these over a search's hits;
for a search made only of words (inflected forms and wildcards included) it reads them from
``translations.json``, written beside the index: per side, per index term, how often each translation
occurs over the whole corpus. Counting them per search would mean reading and aligning every hit (a
common word has thousands).
"""

from __future__ import annotations

import json
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path
from typing import Any

from ..corpora.model import parse_pharaoh
from ..text import PLACEHOLDER as PLACEHOLDER_TOKEN
from ..text import tokenize

TABLE_FILE = "translations.json"
TABLE_TOP = 50  # translations kept per term (the panel shows 30)
Span = tuple[int, int]


def pair_tokens(rec: dict[str, Any]) -> tuple[dict[str, list[Span]], list[tuple[int, int]]]:
    """A pair's tokens per side (the alignment's tokenization) and its links."""
    return {side: tokenize(rec[side]) for side in ("src", "tgt")}, parse_pharaoh(rec.get("alignment", ""))


def pack_tokens(toks: dict[str, list[Span]], links: list[tuple[int, int]]) -> bytes:
    """``pair_tokens`` as bytes, stored with each pair in the index: highlighting a hit then needs no
    tokenizing and no alignment parsing (two thirds of its cost)."""
    flat = array("I", (len(toks["src"]), len(toks["tgt"]), len(links)))
    for part in (toks["src"], toks["tgt"], links):
        flat.extend(chain.from_iterable(part))
    return flat.tobytes()


def unpack_tokens(data: bytes) -> tuple[dict[str, list[Span]], list[tuple[int, int]]]:
    flat = array("I")
    flat.frombytes(data)
    n_src, n_tgt, n_links = flat[0], flat[1], flat[2]
    a, b, c = 3, 3 + 2 * n_src, 3 + 2 * (n_src + n_tgt)
    return ({"src": list(zip(flat[a:b:2], flat[a + 1:b:2], strict=True)),
             "tgt": list(zip(flat[b:c:2], flat[b + 1:c:2], strict=True))},
            list(zip(flat[c:c + 2 * n_links:2], flat[c + 1:c + 2 * n_links:2], strict=True)))


def link_maps(links: Iterable[tuple[int, int]], side: str | None = None) -> dict[str, dict[int, list[int]]]:
    """Per side (or only ``side``), each token's aligned tokens on the other side."""
    maps: dict[str, dict[int, list[int]]] = {"src": {}, "tgt": {}}
    if side != "tgt":
        src = maps["src"]
        for i, j in links:
            src.setdefault(i, []).append(j)
    if side != "src":
        tgt = maps["tgt"]
        for i, j in links:
            tgt.setdefault(j, []).append(i)
    return maps


def aligned_tokens(rec: dict[str, Any], toks: dict[str, list[Span]], searched: str, hits: list[int],
                   maps: dict[str, dict[int, list[int]]]) -> tuple[list[int], bool]:
    """The other side's tokens aligned to the ``hits`` tokens of side ``searched`` (``maps``: from
    ``link_maps``), and whether they make one stretch: they do when close together (the gaps are then
    part of the translation: ``taxa de juro`` -> ``interest rate``)."""
    links = maps[searched]
    other = "tgt" if searched == "src" else "src"
    n_other = len(toks[other])
    found = sorted({j for k in hits for j in links.get(k, ()) if j < n_other})
    if found and not any(rec[searched][toks[searched][k][0]] == "<" for k in hits):
        # a word is not translated by a placeholder: such links are the aligner's noise
        other_text, other_toks = rec[other], toks[other]
        found = [k for k in found if other_text[other_toks[k][0]] != "<"
                 or not PLACEHOLDER_TOKEN.fullmatch(other_text, *other_toks[k])]
    if not found:
        return [], False
    lo, hi = found[0], found[-1]
    if hi - lo <= 2 * max(1, len(hits)) + 2:
        return list(range(lo, hi + 1)), True
    return found, False


def aligned(rec: dict[str, Any], toks: dict[str, list[Span]], searched: str, hits: list[int],
            maps: dict[str, dict[int, list[int]]]) -> tuple[list[list[int]], str]:
    """``aligned_tokens`` as spans of the other side, and the translation they make."""
    found, stretch = aligned_tokens(rec, toks, searched, hits, maps)
    other = "tgt" if searched == "src" else "src"
    return [list(toks[other][k]) for k in found], _text(rec[other], toks[other], found, stretch)


def _text(text: str, toks: list[Span], found: list[int], stretch: bool) -> str:
    if not found:
        return ""
    if stretch:
        return text[toks[found[0]][0]:toks[found[-1]][1]]
    return " ".join(text[toks[k][0]:toks[k][1]] for k in found)


class TableBuilder:
    """Counts, per side and index term, the translations of the pairs containing it: what a search for that
    one term would count over all its hits."""

    def __init__(self, terms_of: Callable[[str], Iterable[str]]) -> None:
        self.terms_of = terms_of  # the index's analyzer, word by word
        self._cache: dict[str, tuple[str, ...]] = {}
        self.counts: dict[str, Counter] = {"src": Counter(), "tgt": Counter()}  # (term, translation) -> pairs

    def _terms(self, word: str) -> tuple[str, ...]:
        got = self._cache.get(word)
        if got is None:
            if len(self._cache) > 200_000:
                self._cache.clear()
            got = self._cache[word] = tuple(t for t in self.terms_of(word) if not t.startswith("<"))
        return got

    def add(self, rec: dict[str, Any], toks: dict[str, list[Span]], links: list[tuple[int, int]]) -> None:
        """One pair, with its ``pair_tokens``."""
        maps = link_maps(links)
        if not maps["src"]:
            return
        for side, other in (("src", "tgt"), ("tgt", "src")):
            text, side_toks = rec[side], toks[side]
            by_term: dict[str, list[int]] = {}
            cache = self._cache
            for k, (a, b) in enumerate(side_toks):
                word = text[a:b]
                terms = cache.get(word)  # _terms, its hit inlined: a million words a 40,000-pair corpus
                for term in (self._terms(word) if terms is None else terms):
                    if term in by_term:
                        by_term[term].append(k)
                    else:
                        by_term[term] = [k]
            counts, links = self.counts[side], maps[side]
            other_text, other_toks = rec[other], toks[other]
            for term, hits in by_term.items():
                if len(hits) == 1:  # most words: once in the pair, one aligned word (aligned_tokens, inlined)
                    js = links.get(hits[0])
                    if js is None:
                        continue
                    if len(js) == 1:
                        if js[0] < len(other_toks):
                            a, b = other_toks[js[0]]
                            if other_text[a] != "<" or text[side_toks[hits[0]][0]] == "<" \
                                    or not PLACEHOLDER_TOKEN.fullmatch(other_text, a, b):
                                counts[term, other_text[a:b]] += 1
                        continue
                found, stretch = aligned_tokens(rec, toks, side, hits, maps)
                if found:
                    counts[term, _text(other_text, other_toks, found, stretch)] += 1

    def write(self, folder: Path) -> None:
        data: dict[str, dict[str, list[tuple[str, int]]]] = {}
        for side, counts in self.counts.items():
            by_term: dict[str, list[tuple[str, int]]] = {}
            for (term, translation), n in counts.most_common():
                got = by_term.setdefault(term, [])
                if len(got) < TABLE_TOP:
                    got.append((translation, n))
            data[side] = by_term
        (folder / TABLE_FILE).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                         encoding="utf-8")


def load_table(folder: Path) -> dict[str, dict[str, list[tuple[str, int]]]] | None:
    """The index's translations table, or None for an index built before it existed (the panel then counts
    a sample of hits)."""
    path = folder / TABLE_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))
