"""An organisation's English name read by the words that translate its source name: an aligned body taken on
past a preposition inside its name ("Commission for Access" + "to Administrative Documents" for "Comissão de
Acesso aos Documentos Administrativos"), where the aligner linked only its first words."""

from __future__ import annotations

from ..text import fold
from .edges import translates
from .names import CAPITALIZED, GUARD_WORD, WORDS, grow

MIN_WORD = 3  # shorter source words ("de", "e") are joiners, never evidence


def source_words(name: str) -> list[str]:
    """The content words of a source name, in order, without its joiners."""
    return [w for w in GUARD_WORD.findall(name) if len(w) >= MIN_WORD and w.lower() not in WORDS.joiners]


def _matches(src_word: str, tgt_word: str) -> bool:
    return translates(src_word, tgt_word) or fold(src_word) == fold(tgt_word)


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
