"""A source organisation no step carried, found as its translation: the capitalized run of English words that
translates its words ("Câmara Municipal de Lisboa" / "Lisbon City Council", "Supremo Tribunal de Justiça" /
"Supreme Court of Justice", "Ordem dos Engenheiros" / "Portuguese Engineers' Association"), when the word aligner
linked the name to nothing usable and its words are reordered or translated, so no string step finds them."""

from __future__ import annotations

from ..corpora.model import Mention
from ..text import fold, tokenize
from .edges import translates
from .names import ACRONYM, CAPITALIZED, GUARD_WORD, WORDS, grow

MIN_WORD = 3  # shorter source words ("de", "e") are joiners, never evidence


def source_words(name: str) -> list[str]:
    """The content words of a source name, in order, without its joiners."""
    return [w for w in GUARD_WORD.findall(name) if len(w) >= MIN_WORD and w.lower() not in WORDS.joiners]


def _matches(src_word: str, tgt_word: str) -> bool:
    return translates(src_word, tgt_word) or fold(src_word) == fold(tgt_word)


def translated_run(tgt: str, toks: list[tuple[int, int]], name: str, free) -> tuple[int, int] | None:
    """The token span of the free capitalized run (grown as an aligned name is) whose words translate the most
    of ``name``'s words: at least two of them, or one of a two-word name in a run of two words or more; None
    when no run does, or two runs tie. A run ending in a legal act's head noun names an act."""
    words = source_words(name)
    if not words or ACRONYM.fullmatch(name):
        return None
    need = 1 if len(words) <= 2 else 2
    best, best_n, tie = None, 0, False
    j = 0
    while j < len(toks):
        a, b = toks[j]
        if not (free(a, b) and CAPITALIZED.match(tgt[a:b]) and tgt[a:b].isalpha()):
            j += 1
            continue
        lo, hi = grow(tgt, toks, j, j, free)
        j = hi + 1
        lo, hi = _trimmed(tgt, toks, lo, hi, words)
        hi = past_inner_prepositions(tgt, toks, hi, name, free)
        run = [tgt[x:y] for x, y in toks[lo:hi + 1] if tgt[x:y].isalpha() and tgt[x:y].lower() not in WORDS.joiners]
        n = sum(any(_matches(s, t) for t in run) for s in words)
        if n >= need and len(run) >= 2 and run[-1].lower() not in WORDS.act_heads:
            if n > best_n:
                best, best_n, tie = (lo, hi), n, False
            elif n == best_n:
                tie = True
    return None if tie else best


def _trimmed(tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, words: list[str]) -> tuple[int, int]:
    """The run without the words before a joiner that come before its first translated word, nor after a joiner
    that come after its last ("Head of the Member Support Office" for "Gabinete de Apoio": the title before the
    body is no part of it)."""
    def word(k: int) -> str:
        return tgt[toks[k][0]:toks[k][1]]

    hits = [k for k in range(lo, hi + 1) if any(_matches(s, word(k)) for s in words)]
    if not hits:
        return lo, hi
    for k in range(hits[0] - 1, lo - 1, -1):
        if word(k).lower() in WORDS.joiners:
            lo = k + 1
            break
    for k in range(hits[-1] + 1, hi + 1):
        if word(k).lower() in WORDS.joiners:
            hi = k - 1
            break
    return lo, hi


def carry_translated(src_mentions: list[Mention], tgt: str, matched: set[int], free, add) -> None:
    """Each untransferred multi-word organisation of the source masked where its translation stands (``add(m,
    start, end, how)`` records it, ``matched`` gains its index)."""
    toks: list[tuple[int, int]] | None = None
    for k, m in enumerate(src_mentions):
        if k in matched or m.category != "ORGANIZATION" or " " not in m.text.strip():
            continue
        if toks is None:
            toks = tokenize(tgt)
        got = translated_run(tgt, toks, m.text, free)
        if got is not None:
            add(m, toks[got[0]][0], toks[got[1]][1], "translated")
            matched.add(k)


def past_inner_prepositions(tgt: str, toks: list[tuple[int, int]], hi: int, name: str, free) -> int:
    """The last token of a body's English name that a step ended at a preposition inside it, taken on over the
    preposition (and "the") and the capitalized words after it while they translate words of the source name
    (``name``): "Commission for Access" + "to Administrative Documents" for "Comissão de Acesso aos Documentos
    Administrativos"."""
    words = None
    while hi + 2 < len(toks) and tgt[toks[hi + 1][0]:toks[hi + 1][1]].lower() in WORDS.inner_prepositions \
            and free(*toks[hi + 1]):
        k = hi + 2
        if tgt[toks[k][0]:toks[k][1]].lower() == "the" and k + 1 < len(toks):
            k += 1
        if not (free(*toks[k]) and CAPITALIZED.match(tgt[toks[k][0]:toks[k][1]])):
            break
        _, end = grow(tgt, toks, k, k, free)
        words = source_words(name) if words is None else words
        if not any(_matches(s, tgt[a:b]) for s in words for a, b in toks[k:end + 1]):
            break
        hi = end
    return hi
