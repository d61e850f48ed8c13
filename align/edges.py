"""The edges of an aligned English name: words that translate visible source words are not part of it.

The alignment step grows a name's aligned words over the capitalized words and joiners beside them
(``_grow``), so that "Directorate-General for the Treasury" is one span. In EU legislation the word before a
name is often a capitalized common noun the source side keeps visible: "Regulamento do <ORG>" / "Regulation
of the European Parliament", "Decisão do <ORG>" / "Decision of the Council of Europe". The grown span then
takes "Regulation of the" in, and the form is spread so. The leading words of an aligned mention up to a
joiner ("Regulation of the", "Head of the") are dropped when the word aligner links each head word to a
visible capitalized source word ("Regulamento") and to none inside a placeholder, and each is a frequent
English word (``HEAD_ZIPF``; a name's own words are rare ones: "Marés", "Hortogal"). The aligned core, linked
to the placeholder, stays; so does a name's own first word with no joiner after it ("Joint Undertaking"),
and a head linked only to lower-case source words (an alignment error: "sede" -> "Ministry").
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

import regex

from ..anonymize.dictionary import english_zipf
from ..corpora.model import Mention
from ..text import tokenize
from .priors import BUILTIN_FILE, read_dictionary
from .target import FORM_JOINERS

if TYPE_CHECKING:
    from .transfer import TransferResult

TRIMMED = ("ORGANIZATION",)  # the categories whose aligned spans grow over a capitalized head noun
HEAD_ZIPF = 3.5  # a head noun of legislation is at least this frequent in English ("Directive" 3.7)
WORD = regex.compile(r"\p{L}+")


@lru_cache(maxsize=1)
def dictionary_pairs() -> frozenset[tuple[str, str]]:
    """The shipped Portuguese-English word pairs (Wiktionary, ``align/data``), lower-cased."""
    return frozenset((s.lower(), t.lower()) for s, t in read_dictionary(BUILTIN_FILE))


def translates(src: str, tgt: str) -> bool:
    """Whether a dictionary gives ``tgt`` for ``src``, either as written or both in the singular ("membros" /
    "Members": "membro" / "member")."""
    pairs = dictionary_pairs()
    s, t = src.lower(), tgt.lower()
    return (s, t) in pairs or (s.removesuffix("s"), t.removesuffix("s")) in pairs


def _placeholder_tokens(src_anon: str, src_anon_mentions: list[Mention]) -> tuple[set[int], dict[int, str]]:
    """The indices of the anonymized source's tokens inside a placeholder, and its visible words by index (a
    capitalized one is a head a translated head can stand for: "Regulamento", "Decisão"; one in lower case
    only when the English word is its dictionary translation: "membros do <ORG>" / "Members of the ...")."""
    toks = tokenize(src_anon)
    starts = [s for s, _ in toks]
    inside: set[int] = set()
    for m in src_anon_mentions:
        k = bisect_left(starts, m.start)
        while k < len(toks) and toks[k][0] < m.end:
            inside.add(k)
            k += 1
    visible = {k: src_anon[a:b] for k, (a, b) in enumerate(toks) if k not in inside}
    return inside, visible


def _visible_translation(word: str, links_of: set[int], inside: set[int], visible: dict[int, str]) -> bool:
    """Whether a target word translates a visible head: a frequent English word linked to none in a placeholder
    and to a visible capitalized source word or a visible word it is the dictionary translation of."""
    if links_of & inside or WORD.fullmatch(word) is None or english_zipf(word.lower()) < HEAD_ZIPF:
        return False
    return any(k in visible and (visible[k][:1].isupper() or translates(visible[k], word)) for k in links_of)


def trimmed_span(tgt: str, m: Mention, tgt_toks: list[tuple[int, int]], links_by_tgt: dict[int, set[int]],
                 inside: set[int], heads: dict[int, str]) -> tuple[int, int] | None:
    """The mention's span without its leading translated head words and joiners, and without trailing ones after
    a joiner ("European Parliament and the Council" for "o <ORG> e o Conselho"), or None if nothing is cut (or
    everything would be)."""
    k0 = bisect_left(tgt_toks, (m.start, -1))  # tokens in text order: the mention's from bisection
    ks = []
    while k0 < len(tgt_toks) and tgt_toks[k0][0] < m.end:
        if tgt_toks[k0][1] <= m.end:
            ks.append(k0)
        k0 += 1
    start, end = _leading_cut(tgt, ks, tgt_toks, links_by_tgt, inside, heads), _trailing_cut(
        tgt, ks, tgt_toks, links_by_tgt, inside, heads)
    if start is None and end is None:
        return None
    start = tgt_toks[ks[start]][0] if start is not None else m.start
    end = tgt_toks[ks[end]][1] if end is not None else m.end
    return (start, end) if start < end else None


def _trailing_cut(tgt: str, ks: list[int], tgt_toks, links_by_tgt, inside, heads) -> int | None:
    """The index in ``ks`` of the last word kept when the trailing words translate visible heads after a joiner."""
    hi = len(ks) - 1
    while hi > 0 and tgt[tgt_toks[ks[hi]][0]:tgt_toks[ks[hi]][1]].lower() not in FORM_JOINERS \
            and _visible_translation(tgt[tgt_toks[ks[hi]][0]:tgt_toks[ks[hi]][1]], links_by_tgt.get(ks[hi], set()),
                                     inside, heads):
        hi -= 1
    if hi == len(ks) - 1 or tgt[tgt_toks[ks[hi]][0]:tgt_toks[ks[hi]][1]].lower() not in FORM_JOINERS:
        return None
    while hi > 0 and tgt[tgt_toks[ks[hi]][0]:tgt_toks[ks[hi]][1]].lower() in FORM_JOINERS:
        hi -= 1
    return hi if hi > 0 or tgt[tgt_toks[ks[0]][0]:tgt_toks[ks[0]][1]].lower() not in FORM_JOINERS else None


def _leading_cut(tgt: str, ks: list[int], tgt_toks, links_by_tgt, inside, heads) -> int | None:
    """The index in ``ks`` of the first word kept when the leading words translate visible heads before a joiner."""
    lo = 0
    while lo < len(ks):
        a, b = tgt_toks[ks[lo]]
        word = tgt[a:b]
        if word.lower() in FORM_JOINERS and lo > 0:
            lo += 1
            continue
        if not _visible_translation(word, links_by_tgt.get(ks[lo], set()), inside, heads):
            break
        lo += 1
    if lo == 0 or lo >= len(ks):
        return None
    while lo < len(ks) and tgt[tgt_toks[ks[lo]][0]:tgt_toks[ks[lo]][1]].lower() in FORM_JOINERS:
        lo += 1
    if lo >= len(ks) or tgt[tgt_toks[ks[lo - 1]][0]:tgt_toks[ks[lo - 1]][1]].lower() not in FORM_JOINERS:
        return None  # a head noun joined to the name ("Regulation of the"), not a name's own first word ("Joint")
    return lo


def trim_translated_heads(tr: TransferResult, src_anon: str, src_anon_mentions: list[Mention], tgt: str,
                          links: list[tuple[int, int]]) -> None:
    """Cut the translated head words off the pair's aligned mentions (``TransferResult`` in place), counted as
    the step ``aligned_head_trimmed``. Reads the tokens only when an aligned mention of ``TRIMMED`` is there."""
    todo = [k for k, m in enumerate(tr.mentions) if m.recognizer == "transfer:alignment" and m.category in TRIMMED
            and " " in m.text]
    if not todo:
        return
    inside, heads = _placeholder_tokens(src_anon, src_anon_mentions)
    tgt_toks = tokenize(tgt)
    lo = bisect_left(tgt_toks, (min(tr.mentions[k].start for k in todo), -1))
    links_by_tgt: dict[int, set[int]] = {}
    for i, j in links:
        if j >= lo:  # the links of the words from the first aligned mention on
            links_by_tgt.setdefault(j, set()).add(i)
    for k in todo:
        m = tr.mentions[k]
        span = trimmed_span(tgt, m, tgt_toks, links_by_tgt, inside, heads)
        if span is not None:
            s, e = span
            tr.mentions[k] = replace(m, start=s, end=e, text=tgt[s:e])
            tr.steps["aligned_head_trimmed"] = tr.steps.get("aligned_head_trimmed", 0) + 1
