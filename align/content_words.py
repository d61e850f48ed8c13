"""Content words: the tokens that are neither punctuation nor function words.

The portal highlights the translation of the word a translator searched for, nearly always a content word
(``Comissão`` -> ``Commission``, not ``the``). ``paranon eval align`` therefore scores the links that touch a
content word apart from all links. The function words per language (closed classes: articles,
prepositions and contractions, pronouns, conjunctions, auxiliaries) are data in ``data/function_words.yaml``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import regex

from ..yaml_files import read_yaml

FUNCTION_WORDS_FILE = Path(__file__).parent / "data" / "function_words.yaml"
WORD_CHARACTER = regex.compile(r"[\p{L}\p{N}]")  # a token without one is punctuation

Links = set[tuple[int, int]]


@cache
def function_words(lang: str) -> frozenset[str]:
    """The function words of ``lang`` (``pt``, ``pt-BR`` and ``PT`` read the ``pt`` list); empty when the
    file has no list for it, so every word with a letter or digit counts as a content word."""
    data = read_yaml(FUNCTION_WORDS_FILE)
    return frozenset(w.lower() for w in data.get(lang.lower().split("-")[0].split("_")[0], []) or [])


def is_content_word(token: str, lang: str) -> bool:
    return WORD_CHARACTER.search(token) is not None and token.lower() not in function_words(lang)


def content_links(links: Links, src: list[str], tgt: list[str], src_lang: str, tgt_lang: str) -> Links:
    """The links of ``links`` with a content word at either end (a content word linked to ``the`` is kept:
    it is the error a reader sees)."""
    return {(i, j) for i, j in links
            if is_content_word(src[i], src_lang) or is_content_word(tgt[j], tgt_lang)}
