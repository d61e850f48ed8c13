"""Whether capitalized words read as ordinary words, a heading or a titled concept rather than a name: what the
fall-back recognizers ask before they guess (Bick & Barreiro's fall-backs, Table 7)."""

from __future__ import annotations

import regex

from .lexicons import zipf

ROMAN = regex.compile(r"^(?=[MDCLXVI])M*(C[MD]|D?C{0,3})(X[CL]|L?X{0,3})(I[XV]|V?I{0,3})$")
VOWELS = regex.compile(r"[AEIOUYÁÉÍÓÚÂÊÔÃÕÀÜaeiouy]")


def ordinary_phrase(lex, words: list[str], min_zipf: float) -> bool:
    """Whether capitalized words read as a heading or a titled concept rather than a name: two or more
    words, every one ordinary (see ``Lexicons.is_ordinary``), one of them at most a surname that is also a
    common word (``Chefe do Poder Executivo``; ``Tarcísio Vieira de Carvalho Neto`` has three and stays a
    name); never a first name."""
    words = [w.strip(".,;:()") for w in words if len(w.strip(".,;:()")) > 2]
    if len(words) < 2:
        return False
    surnames = 0
    for w in words:
        if not lex.is_ordinary(w, min_zipf):
            if not lex.is_ordinary(w, min_zipf, surnames_too=True):
                return False
            surnames += 1
    return surnames <= 1


def ordinary_min_zipf(rules) -> float:
    """The wordfreq frequency from which a word is ordinary (``fallbacks.ordinary_min_zipf`` in the rules).

    wordfreq is imported and its Portuguese list loaded here, when the recognizer is built, not at the first
    word looked up: the pipeline builds its recognizers before it forks its workers, which then share the
    list instead of each spending half a second of CPU loading it again."""
    zipf("de")
    return float(rules.get("fallbacks", {}).get("ordinary_min_zipf", 1.5))


def spaced_letters(words: list[str]) -> bool:
    """``R E L A T Ó R I O``, ``V O T O``: a heading typed letter by letter (three single letters in a row)."""
    run = 0
    for w in words:
        run = run + 1 if len(w) == 1 and w.isalpha() else 0
        if run >= 3:
            return True
    return False
