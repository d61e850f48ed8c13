"""A search's work budget: what one request may cost the server before it is refused with HTTP 400.

One client could otherwise hold a core for seconds: 36 ``*x*y*`` wildcards in a 500-character query
expanded to tens of thousands of index words, each read from the postings (23.7 s of CPU on 40,000 pairs).
The budget is checked in three places:

* before any work: the query's length, its words and its wildcards are counted (``check_words``);
* while wildcards are expanded: a wildcard becomes the index words it matches, found by one regular
  expression over the field's vocabulary held as one string (``Lexicon``), and the words all the query's
  wildcards expand to are capped (``Lexicon.expand``);
* while the hits are collected: a deadline per request (``deadline``/``check``), checked between
  postings, phrase words and candidates, for whatever the caps let through; and a search that has used
  more than ``heavy_cpu_s`` of CPU goes on only while it holds the server's one ``Gate`` (a file lock
  shared by the server's processes): long searches run one at a time and wait (sleeping) for their turn
  until the deadline, so clients sending them get at most one core's share between them, whatever their
  number, and the short searches of everyone else keep the rest.

Every refusal is a ``BudgetError`` whose message says what to change.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
import time
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate

OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
WILDCARD_LITERAL = re.compile(r"[^*?]*")  # a wildcard's letters before its first * or ?
WILDCARD_CHARS = re.compile(r"[*?]|\w~")  # wildcards, and fuzzy words (conta~), which expand over the vocabulary too


class QueryError(ValueError):
    """A query the portal will not run; the message is for the user and says what to change."""


class BudgetError(QueryError):
    """A query over the work budget."""


@dataclass(frozen=True)
class Budget:
    max_chars: int = 500  # query length
    max_words: int = 32  # words (operators not counted)
    max_wildcards: int = 4  # words with * or ?, or fuzzy (conta~)
    max_expansion: int = 500  # index words the query's wildcards expand to, over every field searched
    time_limit_s: float = 1.0  # wall time to collect the hits
    heavy_cpu_s: float = 0.05  # CPU time after which a search needs the server's gate to go on

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
        raise BudgetError(f"The query has {wild} words with *, ? or ~ (at most {budget.max_wildcards}): "
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
    (in C), where Whoosh's own expansion steps through its term index one Python call per word. The words
    are in sorted order, so a wildcard's letters before its first ``*``/``?`` narrow the search to the lines
    starting with them, found by binary search over the lines' offsets (the whole string was scanned)."""

    def __init__(self, fields: dict[str, Iterable[str]]) -> None:
        self.text: dict[str, str] = {}
        self.starts: dict[str, array | None] = {}  # each line's offset, and the text's length + 1 after them
        for f, words in fields.items():
            words = list(words)
            self.text[f] = "\n".join(words)
            ordered = all(a < b for a, b in zip(words, words[1:], strict=False))
            self.starts[f] = array("q", accumulate((len(w) + 1 for w in words), initial=0)) if ordered else None

    def _lines(self, field: str, literal: str) -> str:
        """The part of the field's text whose lines start with ``literal`` (all of it: no literal, or words
        not sorted)."""
        text, starts = self.text.get(field, ""), self.starts.get(field)
        if not literal or starts is None:
            return text
        lines = range(len(starts) - 1)
        word = lambda i: text[starts[i]:starts[i + 1] - 1]  # noqa: E731
        lo = bisect_left(lines, literal, key=word)
        hi = bisect_right(lines, literal, lo=lo, key=lambda i: word(i)[:len(literal)])
        return text[starts[lo]:starts[hi] - 1] if hi > lo else ""

    def expand(self, field: str, text: str, prefix: bool, left: int, limit: int) -> list[str]:
        """The field's words matching the wildcard. More than ``left`` of them (what the query's earlier
        wildcards left of the ``limit``) is over the budget."""
        out: list[str] = []
        literal = text if prefix else WILDCARD_LITERAL.match(text).group()
        for m in wildcard_regex(text, prefix).finditer(self._lines(field, literal)):
            if len(out) >= left:
                raise BudgetError(f"The wildcard {text + ('*' if prefix else '')!r} matches too many words "
                                  f"(the query's wildcards together may match {limit:,}): add letters to it.")
            out.append(m.group(0))
        return out


# -- the gate ------------------------------------------------------------------
class Gate:
    """One long search at a time over all the server's processes: a thread lock within a process and an
    ``flock`` on a file named after the output folder across processes (no ``fcntl``: per process only).
    Waiting is sleeping: it costs no CPU."""

    POLL_S = 0.005

    def __init__(self, name: str) -> None:
        digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:16]
        self.path = os.path.join(tempfile.gettempdir(), f"paranon-search-gate-{digest}")
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        self._pid = 0

    def _file(self) -> int:
        if self._fd is None or self._pid != os.getpid():  # a forked server process opens its own
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self._pid = os.getpid()
        return self._fd

    def acquire(self, timeout: float) -> bool:
        until = time.perf_counter() + max(0.0, timeout)
        if not self._thread_lock.acquire(timeout=max(0.0, timeout)):
            return False
        try:
            import fcntl
        except ImportError:
            return True
        fd = self._file()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.perf_counter() >= until:
                    self._thread_lock.release()
                    return False
                time.sleep(self.POLL_S)

    def release(self) -> None:
        try:
            import fcntl

            fcntl.flock(self._file(), fcntl.LOCK_UN)
        except ImportError:
            pass
        finally:
            self._thread_lock.release()


# -- the deadline --------------------------------------------------------------
_LOCAL = threading.local()


@contextmanager
def deadline(seconds: float, gate: Gate | None = None, heavy_cpu_s: float = 0.05) -> Iterator[None]:
    """Within the block, ``check()`` raises ``BudgetError`` once ``seconds`` have passed, and, with a ``gate``,
    makes the search hold it once it has used ``heavy_cpu_s`` of CPU (per thread)."""
    saved = getattr(_LOCAL, "state", None)
    now = time.perf_counter()
    # the thread's CPU clock costs ~10 µs a reading on some virtual machines: it is read only once the wall
    # clock says the search could be long (CPU time never runs ahead of it), then at most every 5 ms
    _LOCAL.state = {"until": now + seconds, "limit": seconds, "gate": gate, "holding": False,
                    "cpu_from": time.thread_time() if gate is not None else 0.0, "heavy": heavy_cpu_s,
                    "next_cpu_check": now + heavy_cpu_s}
    try:
        yield
    finally:
        state, _LOCAL.state = _LOCAL.state, saved
        if state["holding"]:
            state["gate"].release()


def check() -> None:
    """Raise ``BudgetError`` if this thread's request is past its deadline; wait for the gate if the search has
    become a long one (no deadline: nothing)."""
    state = getattr(_LOCAL, "state", None)
    if state is None or state["until"] is None:
        return
    now = time.perf_counter()
    if now > state["until"]:
        state["until"] = None  # the error is raised once; the handler must not trip over it again
        raise BudgetError(f"The search took longer than {state['limit']:g} s: use fewer or longer wildcards, "
                          f"or more specific words.")
    gate = state["gate"]
    if gate is None or state["holding"] or now < state["next_cpu_check"]:
        return
    state["next_cpu_check"] = now + 0.005
    if time.thread_time() - state["cpu_from"] > state["heavy"]:
        if not gate.acquire(state["until"] - now):
            state["until"] = None
            raise BudgetError("The server is busy with other long searches: try again in a moment, or narrow "
                              "this one (fewer or longer wildcards, more specific words).")
        state["holding"] = True
