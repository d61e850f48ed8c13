"""The query language's own syntax, read before the words go to the parser.

* ``-word`` and ``-"a phrase"`` exclude, as ``NOT word`` does (a hyphen inside a word is part of it:
  ``estados-membros``);
* an operator (``AND``, ``OR``, ``NOT``) needs a word on each side it joins: ``contrato AND``,
  ``OR contrato`` and ``contrato AND OR banco`` are errors that say so;
* placeholders: ``<NAME2_PERSON>`` (the placeholder syntax of ``paranon.text.PLACEHOLDER``) is that entity,
  searched as the word it is in the index; ``<PERSON>`` or ``<NAME_PERSON>`` is any placeholder of the
  category (a filter on the pair's categories); ``<ORGANIZATION_ADMIN>`` any of the subtype (the subtype's
  placeholders, as a wildcard over the index's words).
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from ..text import LABELS, PLACEHOLDER
from .budget import QueryError

OPERATORS = ("AND", "OR", "NOT")
BINARY = ("AND", "OR")
#: a placeholder without its number: ``<PERSON>``, ``<NAME_PERSON>``, ``<ORGANIZATION_ADMIN>``
ANY_PLACEHOLDER = regex.compile(r"<(?:(?i:name)_)?(?P<label>[A-Za-z_]+)>")
#: a placeholder-shaped word whose label is unknown (``<NAME2_FOO>``, ``<FOO>``)
PLACEHOLDER_SHAPED = regex.compile(r"<(?:(?i:name)\d*_)?[A-Za-z_]+>")
#: a leading hyphen that excludes: at the start of the query or after white space, before a word or a phrase
EXCLUDE = regex.compile(r"(?:^|(?<=\s))-(?=[\p{L}\p{N}\"<*?])")
#: a hyphen right before a phrase's opening quote (the text before the quote ends with it)
EXCLUDE_PHRASE = regex.compile(r"(?:^|(?<=\s))-$")
#: a NOT right before a placeholder (``-<PERSON>`` reads as ``NOT <PERSON>``)
NEGATED = regex.compile(r"(?:^|\s)NOT\s+$")
#: categories a pair can be filtered by (the visible public kinds included)
FILTER_CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE", "PUBLIC_ID", "PUBLICATION")


@dataclass
class Query:
    """What the parser gets (``text``) and the category filters the placeholders ask for."""

    text: str
    categories: list[str]


def read_query(q: str) -> Query:
    """``q`` with its exclusions written as ``NOT`` and its placeholders resolved; a misplaced operator or
    an unknown placeholder label raises ``QueryError`` naming it."""
    parts = q.split('"')
    cats: list[str] = []
    for k in range(0, len(parts), 2):  # outside the phrases
        part = EXCLUDE.sub("NOT ", parts[k])
        if k + 1 < len(parts):  # a phrase follows: -"a phrase"
            part = EXCLUDE_PHRASE.sub("NOT ", part)
        parts[k] = _placeholders(part, cats)
    text = '"'.join(parts)
    _check_operators(parts)
    return Query(text, cats)


def _placeholders(text: str, cats: list[str]) -> str:
    def resolve(m: regex.Match) -> str:
        label = m.group("label").upper()
        if label not in LABELS and label not in FILTER_CATEGORIES:
            raise QueryError(f"Unknown category {m.group(0)!r}: use one of {', '.join(LABELS)}.")
        if "_" in label and label.startswith("ORGANIZATION_"):
            return f"<name*_{label.lower()}>"
        cats.append(label)
        return " "

    out = []
    pos = 0
    for m in PLACEHOLDER_SHAPED.finditer(text):
        out.append(text[pos:m.start()])
        if NEGATED.search(text, 0, m.start()):
            raise QueryError(f"{m.group(0)} cannot be excluded: search the words without it, or choose "
                             "\"any pair\" and another category.")
        numbered = PLACEHOLDER.fullmatch(m.group(0).upper())
        if numbered:
            if numbered.group("label") not in LABELS:
                raise QueryError(f"Unknown category {m.group(0)!r}: use one of {', '.join(LABELS)}.")
            out.append(m.group(0).upper())  # the word the index holds for it (folded by the analyzer)
        else:
            got = ANY_PLACEHOLDER.fullmatch(m.group(0))
            if got is None:
                raise QueryError(f"Cannot read {m.group(0)!r}: write <NAME2_PERSON> or <PERSON>.")
            out.append(resolve(got))
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _check_operators(parts: list[str]) -> None:
    """Each binary operator between two searchable things, NOT before one (phrases count as one)."""
    items: list[str] = []
    for k, part in enumerate(parts):
        if k % 2:
            items.append("PHRASE")
        else:
            items.extend(w.strip("()") for w in part.split() if w.strip("()"))
    for k, w in enumerate(items):
        if w not in OPERATORS:
            continue
        after = items[k + 1] if k + 1 < len(items) else None
        if after is None:
            raise QueryError(f"The query ends with {w}: add a word after it, or remove it.")
        if after in BINARY:
            raise QueryError(f"{w} {after}: two operators in a row; put a word between them.")
        if w in BINARY and (k == 0 or items[k - 1] in OPERATORS):
            raise QueryError(f"The query starts with {w}: add a word before it, or remove it.")
