"""A search's work budget: what one request may cost the server before it is refused with HTTP 400.

One client could otherwise hold a core for seconds: 36 ``*x*y*`` wildcards in a 500-character query
expanded to tens of thousands of index words, each read from the postings (23.7 s of CPU on 40,000 pairs).
The budget is checked in three places:

* before any work: the query's length, its words and its wildcards are counted (``check_words``);
* while wildcards are expanded: a wildcard becomes the index words it matches, found by one regular
  expression over the field's vocabulary held as one string (``Lexicon``), and the words all the query's
  wildcards expand to are capped (``Lexicon.expand``);
* while the hits are collected: a deadline per request (``deadline``/``check``), checked between
  postings, phrase words and candidates, for whatever the caps let through.

Every refusal is a ``BudgetError`` whose message says what to change.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
WILDCARD_CHARS = re.compile(r"[*?]")


class QueryError(ValueError):
    """A query the portal will not run; the message is for the user and says what to change."""


class BudgetError(QueryError):
    """A query over the work budget."""


@dataclass(frozen=True)
class Budget:
    max_chars: int = 500  # query length
    max_words: int = 32  # words (operators not counted)
    max_wildcards: int = 4  # words with * or ?
    max_expansion: int = 500  # index words the query's wildcards expand to, over every field searched
    time_limit_s: float = 1.0  # wall time to collect the hits

    @classmethod
    def from_config(cls, cfg: dict | None) -> Budget:
        """From ``portal.budget`` of the configuration (missing keys keep their defaults; unknown ones are an
        error naming the key)."""
        cfg = dict(cfg or {})
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(cfg) - known)
        if unknown:
            raise BudgetError(f"portal.budget: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return cls(**cfg)


def check_words(q: str, budget: Budget) -> None:
    """The budget's limits on the query text itself (nothing searched yet)."""
    if len(q) > budget.max_chars:
        raise BudgetError(f"The query is too long ({len(q)} characters; at most {budget.max_chars}): shorten it.")
    words = [w for w in q.replace('"', " ").replace("(", " ").replace(")", " ").split() if w not in OPERATORS]
    if len(words) > budget.max_words:
        raise BudgetError(f"The query has {len(words)} words (at most {budget.max_words}): search for fewer words.")
    wild = sum(1 for w in words if WILDCARD_CHARS.search(w))
    if wild > budget.max_wildcards:
        raise BudgetError(f"The query has {wild} words with * or ? (at most {budget.max_wildcards}): "
                          f"use fewer wildcards, or spell those words out.")


# -- wildcard expansion --------------------------------------------------------
def wildcard_regex(text: str, prefix: bool = False) -> re.Pattern:
    """A wildcard (``*`` any letters, ``?`` one) or a prefix as a regex matching whole lines of a vocabulary."""
    if prefix:
        body = re.escape(text) + "[^\n]*"
    else:
        body = "".join("[^\n]*" if c == "*" else "[^\n]" if c == "?" else re.escape(c) for c in text)
    return re.compile(f"^{body}$", re.MULTILINE)


class Lexicon:
    """Per field, the index words as one newline-separated string: a wildcard is one regex search over it
    (in C), where Whoosh's own expansion steps through its term index one Python call per word."""

    def __init__(self, fields: dict[str, Iterable[str]]) -> None:
        self.text = {f: "\n".join(words) for f, words in fields.items()}

    def expand(self, field: str, text: str, prefix: bool, left: int, limit: int) -> list[str]:
        """The field's words matching the wildcard. More than ``left`` of them (what the query's earlier
        wildcards left of the ``limit``) is over the budget."""
        out: list[str] = []
        for m in wildcard_regex(text, prefix).finditer(self.text.get(field, "")):
            if len(out) >= left:
                raise BudgetError(f"The wildcard {text + ('*' if prefix else '')!r} matches too many words "
                                  f"(the query's wildcards together may match {limit:,}): add letters to it.")
            out.append(m.group(0))
        return out


# -- the deadline --------------------------------------------------------------
_LOCAL = threading.local()


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Within the block, ``check()`` raises ``BudgetError`` once ``seconds`` have passed (per thread)."""
    previous = getattr(_LOCAL, "until", None)
    _LOCAL.until = time.perf_counter() + seconds
    _LOCAL.limit = seconds
    try:
        yield
    finally:
        _LOCAL.until = previous


def check() -> None:
    """Raise ``BudgetError`` if this thread's request is past its deadline (no deadline: nothing)."""
    until = getattr(_LOCAL, "until", None)
    if until is not None and time.perf_counter() > until:
        _LOCAL.until = None  # the error is raised once; the handler must not trip over it again
        raise BudgetError(f"The search took longer than {_LOCAL.limit:g} s: use fewer or longer wildcards, "
                          f"or more specific words.")
