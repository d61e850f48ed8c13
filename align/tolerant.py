"""Tolerant string search: a form found in a text whatever its case, accents and separators (dots, spaces,
dashes, apostrophes) where it had them."""

from __future__ import annotations

from collections import defaultdict

import regex

from ..text import fold_same_length

DASHES = "-‐‑‒–—―"
SEPARATORS = set(" .,-'’`´" + DASHES + "\u00a0\u00ad")
NON_SEPARATORS = regex.compile("[^\\s\\x1c-\\x1f" + regex.escape("".join(sorted(SEPARATORS))) + "]+")  # not _is_separator


def _is_separator(ch: str) -> bool:
    return ch in SEPARATORS or ch.isspace()


def tolerant_form(text: str) -> tuple[str, frozenset[int]] | None:
    """A form to search tolerantly: its folded letters and digits, and where it had separators.

    ``Claus–Dieter`` -> (``clausdieter``, {5}): a separator may vary or vanish where the form had one
    (``Claus Dieter``, ``ClausDieter``) and may not appear elsewhere. None for forms under two letters.
    """
    chars: list[str] = []
    breaks = set()
    for ch in fold_same_length(text):
        if _is_separator(ch):
            if chars:
                breaks.add(len(chars))
            continue
        chars.append(ch)
    if len(chars) < 2:
        return None
    return "".join(chars), frozenset(b for b in breaks if b < len(chars))


GRAM = 4  # TolerantText: a long text's skeleton is indexed by its 4-character grams
INDEXED_TEXT = 20_000  # ... from this many characters


class TolerantText:
    """A folded text with its separators set aside, where tolerant forms are found with ``str.find``.

    Compiling one regex per form cost about a millisecond each (most of the transfer stage); this does
    the same matching with plain string search over the text's letters and digits.
    """

    def __init__(self, folded: str) -> None:
        self.text = folded
        self.pos: list[int] = []
        self.skel = ""
        self._ready = False  # the skeleton is made at the first search (many pairs have nothing to look for)
        self._grams: dict[str, list[int]] | None = None
        self._found: dict[tuple[str, frozenset[int]], list[tuple[int, int]]] = {}

    def _make(self) -> None:
        runs = []
        for m in NON_SEPARATORS.finditer(self.text):
            self.pos.extend(range(m.start(), m.end()))
            runs.append(m.group())
        self.skel = "".join(runs)
        self._ready = True

    def find(self, form: tuple[str, frozenset[int]]) -> list[tuple[int, int]]:
        """Character spans of the form in the text, whole words only, left to right, not overlapping. The
        list is remembered for the text (a form is searched once per mention of its entity: a segment that
        names one entity a thousand times searched it a thousand times); it is not to be modified."""
        got = self._found.get(form)
        if got is None:
            got = self._found[form] = self._find(form)
        return got

    def _find(self, form: tuple[str, frozenset[int]]) -> list[tuple[int, int]]:
        if not self._ready:
            self._make()
        skel, breaks = form
        n, pos, text, out = len(skel), self.pos, self.text, []
        if n >= GRAM and len(self.skel) > INDEXED_TEXT:  # a long text: candidates from its n-gram index
            candidates = self._candidates(skel)
            nxt = 0
            for i in candidates:
                if i < nxt or not self.skel.startswith(skel, i):
                    continue
                s, e = pos[i], pos[i + n - 1] + 1
                ok = (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum()) and all(
                    pos[i + k] == pos[i + k - 1] + 1 or k in breaks for k in range(1, n))
                if ok:
                    out.append((s, e))
                nxt = i + (n if ok else 1)
            return out
        i = self.skel.find(skel)
        while i >= 0:
            s, e = pos[i], pos[i + n - 1] + 1
            ok = (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum()) and all(
                pos[i + k] == pos[i + k - 1] + 1 or k in breaks for k in range(1, n))
            if ok:
                out.append((s, e))
            i = self.skel.find(skel, i + (n if ok else 1))
        return out

    def _candidates(self, skel: str) -> list[int]:
        """Where the skeleton's first ``GRAM`` characters occur (searching a long text once per form, for
        every mention of an entity-dense segment, was quadratic in its length)."""
        if self._grams is None:
            grams: dict[str, list[int]] = defaultdict(list)
            sk = self.skel
            for i in range(len(sk) - GRAM + 1):
                grams[sk[i:i + GRAM]].append(i)
            self._grams = grams
        return self._grams.get(skel[:GRAM], [])
