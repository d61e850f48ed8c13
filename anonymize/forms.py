"""A document's entity forms: where they occur in a text (whole words) and the shorter names a company is called
by later in its document. Used by the anonymizer's document propagation (``anonymize/engine.py``)."""
from __future__ import annotations

from typing import Any

import regex

from .recognizer import alternation


def find_words(text: str, words: dict[str, Any] | list[str]) -> list[tuple[int, int, str]]:
    """Whole-word occurrences of any of ``words`` in ``text``, longest first where they overlap.

    Plain ``str.find`` per word: a document's few dozen entity strings are found faster this way than
    by compiling them into one regex per document (which cost more than the search itself).
    """
    hits = []
    n = len(text)
    for w in words:
        i = text.find(w)
        while i >= 0:
            e = i + len(w)
            if (i == 0 or not text[i - 1].isalnum()) and (e == n or not text[e].isalnum()):
                hits.append((i, e, w))
            i = text.find(w, i + 1)
    hits.sort(key=lambda h: (h[0], h[0] - h[1]))
    out: list[tuple[int, int, str]] = []
    for h in hits:
        if not out or h[0] >= out[-1][1]:
            out.append(h)
    return out


COMPANY_TAIL = regex.compile(r"[\s,]+\S+$")
DASHED_SHORT_NAME = regex.compile(r"\p{Lu}[\p{L}\d'’-]{2,}\s+[–—]\s+\p{Lu}")
DASH_BREAK = regex.compile(r"\s+[–—]\s+")
LEADING_ARTICLE = regex.compile(r"^(?:A|O|As|Os|The)\s+(?=\p{Lu})")  # the legal form that ends a company's name, with its comma


def name_breaks(rules: dict[str, Any]) -> regex.Pattern:
    """Where a company's name joins a second part (``company_name_joiners`` in the rules, and a comma)."""
    return regex.compile(rf"\s+(?:{alternation(rules['company_name_joiners'])})\s+|,|\s+[–—-]\s+")


def company_short_forms(name: str, name_break: regex.Pattern) -> list[str]:
    """The names a company is called by later: its name without the legal form, the part before an ``&``,
    ``e``, particle or dash when that part has two words, and the first two capitalized words of a longer part
    (``Grupo RX Engenharia e Obras Ltda.`` -> ``Grupo RX Engenharia e Obras``, ``Grupo RX Engenharia``,
    ``Grupo RX``; ``Serra Alta – Gestão de Ativos, S.A.`` -> ``Serra Alta``)."""
    out = []
    bare = LEADING_ARTICLE.sub("", COMPANY_TAIL.sub("", name).strip())  # ("A Serra Alta, S.A. recorreu")
    if bare and bare != name and len(bare.split()) >= 2:
        out.append(bare)
        head = name_break.split(bare, 1)[0].strip()
        # (one capitalized word set off by a dash is the short name too: "Fidelidade – Companhia de Seguros, S.A.")
        if head != bare and (len(head.split()) >= 2 or DASHED_SHORT_NAME.match(bare)):
            out.append(head)
        # (the whole part before a dash, an inner "e" or "&" in it: "Sal e Pimenta – Restauração, Lda.")
        dashed = DASH_BREAK.split(bare, 1)[0].strip()
        if dashed not in (bare, head) and len(dashed.split()) >= 2:
            out.append(dashed)
        words = head.split()
        if len(words) >= 3 and all(w[:1].isupper() for w in words[:3]):
            out.append(" ".join(words[:2]))
    return out
