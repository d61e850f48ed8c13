"""Dictionary repair of eflomal's links: a content word left unaligned gets its dictionary translation.

eflomal's distortion model prefers monotone links. In titles whose word order crosses (``Regulamento (UE)
2016/1199 da Comissão`` / ``Commission Regulation (EU) 2016/1199``) it links ``Regulamento`` to
``Commission`` and leaves ``Comissão`` with no link in either direction, though the two words occur in the
same 351 of 352 DGT pairs: 7 % of the ``Comissão`` tokens of DGT-TM were linked (README). Priors do not help
(``align.prior_alpha`` 10: 9 %): the co-occurrence cannot tell ``Comissão`` from ``Regulamento``.

After eflomal, each pair is repaired in both directional link files (so symmetrization keeps the link): a
source content word with no link in either direction is linked to a target word that the ``align.priors``
dictionary gives as its translation, the one nearest its relative position, unless every such word is
already linked to a source word of which it is also a dictionary translation; links of that target word to
other source words (``Regulamento`` -> ``Commission``) are removed. It runs twice per pair, so a word freed
this way gets its own translation (``Regulamento`` -> ``Regulation``). Without a dictionary nothing changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from ..corpora.model import parse_pharaoh, pharaoh
from .content_words import is_content_word

Links = set[tuple[int, int]]
PASSES = 2  # a word freed by the first pass gets its own translation in the second


def dictionary_pairs(prior_lines: Iterable[str]) -> set[tuple[str, str]]:
    """The normalized (source, target) pairs of eflomal ``LEX`` prior lines."""
    out = set()
    for line in prior_lines:
        parts = line.split("\t")
        if len(parts) == 4 and parts[0] == "LEX":
            out.add((parts[1], parts[2]))
    return out


def _target_for(i: int, src: list[str], tgt: list[str], links: Links, pairs: set[tuple[str, str]],
                norm: Callable[[str], str]) -> tuple[int, set[int]] | None:
    """The target word to link source word ``i`` to and the source words whose links to it go, or None."""
    a = norm(src[i])
    found = [j for j, w in enumerate(tgt) if (a, norm(w)) in pairs]
    for j in sorted(found, key=lambda j: (abs(j / len(tgt) - i / len(src)), j)):
        holders = {x for x, y in links if y == j}
        if not any((norm(src[x]), norm(tgt[j])) in pairs for x in holders):
            return j, holders
    return None


def repair_pair(src: list[str], tgt: list[str], fwd: Links, rev: Links, pairs: set[tuple[str, str]],
                norm: Callable[[str], str], src_lang: str = "pt") -> tuple[Links, Links]:
    """One pair's directional links, with each unaligned source content word linked to its dictionary
    translation (see the module's text)."""
    if not src or not tgt:
        return fwd, rev
    for _ in range(PASSES):
        union = fwd | rev
        linked = {x for x, _ in union}
        changed = False
        for i, w in enumerate(src):
            if i in linked or not is_content_word(w, src_lang):
                continue
            got = _target_for(i, src, tgt, union, pairs, norm)
            if got is None:
                continue
            j, holders = got
            gone = {(x, j) for x in holders}
            fwd, rev = (fwd - gone) | {(i, j)}, (rev - gone) | {(i, j)}
            union = fwd | rev
            changed = True
        if not changed:
            break
    return fwd, rev


def repair_files(src_path: str | Path, tgt_path: str | Path, fwd_path: str | Path, rev_path: str | Path,
                 pairs: set[tuple[str, str]], norm: Callable[[str], str], src_lang: str = "pt") -> None:
    """``repair_pair`` over token files and their directional Pharaoh files, rewritten in place; lines of
    the link files past the token files' end (eflomal's extra training text) are copied unchanged."""
    if not pairs:
        return
    fwd_out, rev_out = f"{fwd_path}.repaired", f"{rev_path}.repaired"
    with open(src_path, encoding="utf-8") as fs, open(tgt_path, encoding="utf-8") as ft, \
            open(fwd_path, encoding="utf-8") as ff, open(rev_path, encoding="utf-8") as fr, \
            open(fwd_out, "w", encoding="utf-8") as of, open(rev_out, "w", encoding="utf-8") as orv:
        for f_line, r_line in zip(ff, fr, strict=True):
            s, t = fs.readline(), ft.readline()
            if s and t:
                f, r = repair_pair(s.split(), t.split(), set(parse_pharaoh(f_line)), set(parse_pharaoh(r_line)),
                                   pairs, norm, src_lang)
                f_line, r_line = pharaoh(sorted(f)) + "\n", pharaoh(sorted(r)) + "\n"
            of.write(f_line)
            orv.write(r_line)
    os.replace(fwd_out, fwd_path)
    os.replace(rev_out, rev_path)
