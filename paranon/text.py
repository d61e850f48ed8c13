"""Text primitives every stage shares: folding, tokens, categories and the placeholder syntax.

One home for each of these ideas; the stages (anonymize, align, search_portal, the evaluations) import them
from here, and this module imports no stage.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import regex

# ---- categories -----------------------------------------------------------------------------------------
#: the anonymisation-candidate categories, in the order reports list them
CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE")
#: what stays visible but is still recognized (law, decree, regulation numbers)
PUBLIC_CATEGORIES = ("PUBLIC_ID",)
ORGANIZATION_SUBTYPES = ("ADMIN", "COMPANY", "INSTITUTION")
#: every label a placeholder can carry: a category, or ORGANIZATION with its subtype
LABELS = CATEGORIES[:1] + ("ORGANIZATION",) + tuple(f"ORGANIZATION_{s}" for s in ORGANIZATION_SUBTYPES) \
    + CATEGORIES[2:]

# ---- the placeholder syntax ----------------------------------------------------------------------------
DEFAULT_PLACEHOLDER = "<NAME{n}_{label}>"
_FIELDS = {"n": r"(?P<n>\d+)", "label": r"(?P<label>[A-Z_]+)", "category": r"(?P<category>[A-Z]+)",
           "subtype": r"(?P<subtype>[A-Z]*)"}
_FIELD = regex.compile(r"\{(\w+)\}")


@lru_cache(maxsize=8)
def placeholder_regex(template: str = DEFAULT_PLACEHOLDER) -> regex.Pattern:
    """The regex that finds the placeholders ``template`` writes (``<NAME{n}_{label}>`` -> ``<NAME3_PERSON>``).

    Groups: ``n`` (the entity number) and ``label`` (or ``category``/``subtype``), for those the template uses."""
    parts, pos = [], 0
    for m in _FIELD.finditer(template):
        parts.append(regex.escape(template[pos:m.start()]))
        if m.group(1) not in _FIELDS:
            raise ValueError(f"anonymize.placeholder: unknown field {{{m.group(1)}}} (known: n, label, category, subtype)")
        parts.append(_FIELDS[m.group(1)])
        pos = m.end()
    parts.append(regex.escape(template[pos:]))
    return regex.compile("".join(parts))


#: the default placeholder, ``<NAME3_PERSON>``: group ``n`` is the number, ``label`` the category label
PLACEHOLDER = placeholder_regex(DEFAULT_PLACEHOLDER)

# ---- folding -------------------------------------------------------------------------------------------


def _fold_one(c: str) -> str:
    """One character casefolded, decomposed (NFKD) and stripped of its combining marks."""
    nfkd = unicodedata.normalize("NFKD", c.casefold())
    return "".join(x for x in nfkd if not unicodedata.combining(x))


class _Fold(dict):
    """Each non-ASCII character of a casefolded text -> ``_fold_one`` of it, filled as characters are met."""

    def __missing__(self, c: str) -> str:
        self[c] = got = _fold_one(c)
        return got


_FOLD = _Fold()


def _fold(text: str) -> str:
    """``NFKD(text.casefold())`` without combining marks, one non-ASCII character at a time (decomposition
    works per character, and only the order of combining marks, which go, depends on their neighbours; ASCII
    characters are their own decomposition): the same string, without a generator step per character."""
    low = text.casefold()
    if low.isascii():
        return low
    return _NON_ASCII.sub(lambda m: _FOLD[m.group()], low)


class _SameLengthFold(dict):
    """``str.translate`` table folding one character to one character, filled as characters are met."""

    def __missing__(self, ch: int) -> str:
        c = chr(ch)
        f = _fold(c)
        out = f if len(f) == 1 else c.lower() if len(c.lower()) == 1 else c
        self[ch] = out
        return out


_SAME_LENGTH = _SameLengthFold()


@lru_cache(maxsize=1 << 18)
def fold(text: str) -> str:
    """Lowercase and strip accents: the key every lexicon lookup uses (memoized: words recur)."""
    if text.isascii():
        return text.lower()
    return _fold(text)


def phrase_key(text: str) -> str:
    """``fold`` with white space collapsed: the key allow lists, entity forms and places are compared by."""
    return " ".join(fold(text).split())


_NON_ASCII = regex.compile(r"[^\x00-\x7f]")


def fold_same_length(text: str) -> str:
    """Accent-folded lowercase text of the same length, so match offsets in it map back one to one.
    ``str.lower`` first, then only the non-ASCII characters looked up in the table (the same result as
    translating every character: checked on every code point, alone and between letters)."""
    low = text.lower()
    if len(low) != len(text):  # a character whose lowercase is longer (İ)
        return text.translate(_SAME_LENGTH)
    if low.isascii():
        return low
    return _NON_ASCII.sub(lambda m: _SAME_LENGTH[ord(m.group())], low)


# ---- tokens --------------------------------------------------------------------------------------------
#: a token: a placeholder whole, the suppression mark, a word (inner - ' . kept), or one other character
TOKEN = regex.compile(r"<NAME\d+_[A-Z_]+>|\(\.\.\.\)|[\p{L}\p{N}]+(?:[-'’.][\p{L}\p{N}]+)*|\S")


@lru_cache(maxsize=4096)
def tokenize(text: str) -> list[tuple[int, int]]:
    """Token character spans; a placeholder is one token. Memoized (a pair's texts are tokenized by several
    steps of the transfer, alignment and writing): the list returned is shared, never to be modified."""
    return [m.span() for m in TOKEN.finditer(text)]


def token_words(text: str) -> list[str]:
    """The tokens as words for an aligner: one per ``tokenize`` span, inner spaces made ``_``."""
    return [text[s:e].replace(" ", "_") for s, e in tokenize(text)]
