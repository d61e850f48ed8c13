"""Queries matched against a pair's words: the index terms a search highlights, found in folded text
(``word_finder``), and parsed queries (Whoosh query objects) read for what they require and checked
against a pair's words as typed.

An exact-form (or case-sensitive) search finds candidates through the folded fields with the query's
positive part (``positive``), then checks each candidate's words as typed (``exact_match``) and highlights
the query's words and wildcard patterns (``exact_leaves``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import regex
from whoosh import query as wq


def is_null(q) -> bool:
    return q is None or q is wq.NullQuery or isinstance(q, type(wq.NullQuery))


def positive(q):
    """The part of a query that a match must contain (its negations dropped), to find candidates with;
    None when nothing is required (``NOT x`` alone, or an OR with a negated branch)."""
    if isinstance(q, wq.Not):
        return None
    if isinstance(q, (wq.AndNot, wq.AndMaybe)):
        return positive(q.a)
    if isinstance(q, wq.And):
        kept = [p for p in (positive(c) for c in q.subqueries) if p is not None]
        return wq.And(kept) if len(kept) > 1 else kept[0] if kept else None
    if isinstance(q, wq.Or):
        kept = [positive(c) for c in q.subqueries]
        return None if any(p is None for p in kept) else wq.Or(kept)
    return q


def _pattern(q) -> Any:
    """The regex of a wildcard or prefix query (compiled once per query text: exact-form searches check it
    against every candidate)."""
    return _compiled_pattern(q.text, isinstance(q, wq.Prefix))


@lru_cache(maxsize=1024)
def _compiled_pattern(text: str, prefix: bool) -> Any:
    if prefix:
        return regex.compile(regex.escape(text) + ".*", regex.DOTALL)
    return regex.compile("".join(".*" if c == "*" else "." if c == "?" else regex.escape(c) for c in text),
                         regex.DOTALL)


def exact_leaves(q, out: dict[str, tuple[set[str], list[Any]]] | None = None
                  ) -> dict[str, tuple[set[str], list[Any]]]:
    """Per field, the words and wildcard patterns a hit is highlighted for (negated parts left out)."""
    out = {} if out is None else out
    if isinstance(q, wq.Not):
        return out
    if isinstance(q, (wq.AndNot, wq.AndMaybe)):
        return exact_leaves(q.a, out)
    if isinstance(q, (wq.Term, wq.Phrase, wq.Wildcard, wq.Prefix)):
        words, patterns = out.setdefault(q.fieldname, (set(), []))
        if isinstance(q, wq.Term):
            words.add(q.text)
        elif isinstance(q, wq.Phrase):
            words.update(q.words)
        else:
            patterns.append(_pattern(q))
        return out
    for c in getattr(q, "subqueries", ()):
        exact_leaves(c, out)
    return out


def exact_match(q, words: dict[str, list[str]]) -> bool:
    """Whether a pair's words (per exact-form field, as typed) satisfy an exact-form query."""
    if isinstance(q, wq.Term):
        return q.text in words.get(q.fieldname, ())
    if isinstance(q, wq.Phrase):
        seq, want = words.get(q.fieldname, []), list(q.words)
        return any(seq[i:i + len(want)] == want for i in range(len(seq) - len(want) + 1))
    if isinstance(q, (wq.Wildcard, wq.Prefix)):
        p = _pattern(q)
        return any(p.fullmatch(w) for w in words.get(q.fieldname, ()))
    if isinstance(q, wq.Not):
        return not exact_match(q.query, words)
    if isinstance(q, wq.AndNot):
        return exact_match(q.a, words) and not exact_match(q.b, words)
    if isinstance(q, wq.AndMaybe):
        return exact_match(q.a, words)
    if isinstance(q, wq.And):
        return all(exact_match(c, words) for c in q.subqueries)
    if isinstance(q, wq.Or):
        return any(exact_match(c, words) for c in q.subqueries)
    return not is_null(q)


def word_finder(terms: set[str]) -> Any:
    """A regex finding the index ``terms`` as whole words in text folded by ``fold_same_length``."""
    return _compiled_finder(frozenset(terms))


@lru_cache(maxsize=1024)
def _compiled_finder(terms: frozenset[str]) -> Any:
    """A regex finding, in text folded by ``fold_same_length``, the index terms as whole words (as the
    index's tokenizer cuts them: ``estados`` does not match inside ``estados-membros``)."""
    return regex.compile(r"(?<![\p{L}\p{N}_]|[\p{L}\p{N}_][-'’])\L<terms>(?![\p{L}\p{N}_]|[-'’][\p{L}\p{N}_])",
                         terms=sorted(terms, key=len, reverse=True))
