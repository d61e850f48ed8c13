"""Word links over the words of the shipped files: paranon's tokens -> whitespace tokens.

paranon aligns its own tokens (``paranon.text.tokenize``: ``"contrato,"`` is two tokens, a placeholder is
one), but the Moses files it ships (``corpus.pt``/``corpus.en``, one segment per line) are read by
fast_align, Moses and their kin as words separated by white space. A Pharaoh line shipped beside them must
index those words: ``i-j`` means the i-th white-space-separated word of the source line and the j-th of the
target line (0-based), so a link of ``"contrato"`` in ``"contrato,"`` becomes a link of that word.

Every paranon token lies inside one white-space word (a token never contains white space), so the mapping
is total; links that fall on the same two words are one link.
"""

from __future__ import annotations

import re

from ..text import tokenize

#: a word of a Moses line, as the tools cut it (Python's white space, which ``str.split()`` uses too)
WHITESPACE_WORD = re.compile(r"\S+")


def word_of_token(text: str, spans: list[tuple[int, int]]) -> list[int]:
    """For each token span of ``text`` (in text order), the index of the white-space word holding it.

    Tokens cover every character that is not white space, so a gap between two tokens is white space and
    starts a new word: one walk over the spans. Where the text's white space is of a kind the tokenizer
    and ``str.split`` see differently (the word counts disagree), the words are found by ``WHITESPACE_WORD``."""
    out, w, end = [], -1, -1
    for s, e in spans:
        if s != end:
            w += 1
        out.append(w)
        end = e
    if w + 1 == len(text.split()):
        return out
    starts = [m.start() for m in WHITESPACE_WORD.finditer(text)]
    out, w = [], -1
    for s, _ in spans:
        while w + 1 < len(starts) and starts[w + 1] <= s:
            w += 1
        out.append(w)
    return out


def whitespace_links(src: str, tgt: str, links: list[tuple[int, int]],
                     src_spans: list[tuple[int, int]], tgt_spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``links`` between token ``src_spans`` and ``tgt_spans`` (of ``src`` and ``tgt``) as links between
    the white-space words of the same texts, sorted, each once. A link naming a token that does not exist
    is dropped (it cannot be placed on a word)."""
    ws, wt = word_of_token(src, src_spans), word_of_token(tgt, tgt_spans)
    return sorted({(ws[i], wt[j]) for i, j in links if 0 <= i < len(ws) and 0 <= j < len(wt)})


def moses_links(src: str, tgt: str, links: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The links to ship beside the Moses lines ``src`` and ``tgt`` (their white-space words indexed) for
    ``links`` over their paranon tokens."""
    return whitespace_links(src, tgt, links, tokenize(src), tokenize(tgt))
