"""The audit's scanner: every hit of the originals in a stream of texts, each distinct piece of text matched once.

The public files hold the same text many times over (the corpus as JSONL, TMX, TSV, Moses, and again in the
index's stored records; a translation memory repeats its segments). The texts a reader yields are joined
into blocks of about ``BLOCK_CHARS`` (one text a line) and the blocks matched; a match never runs over a
block's end. Within a block, a match can run over the line break between two texts only where a form (or an
allowed string) has a space: the token before the break would end with a form's non-final token
(``Scanner.joins``). Where it cannot, the break cuts the block into *units*, and a unit's hits do not depend
on what surrounds it (a line break is neither a word character nor part of a form), so they are looked up in a
cache keyed by the unit's text and matched only the first time. What is counted, and in which order, is what
matching each block whole counts. A block holding a character whose lowercase depends on its neighbours
(``Σ``) or changes the text's length (``İ``) is matched whole, as the fold of the whole block would.
"""

from __future__ import annotations

import gc
import os
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .text import fold_same_length

BLOCK_CHARS = 1 << 20  # text scanned per regex call
CONTEXT_FOLD = re.compile("[\u03a3\u0130]")  # lowercase depends on the neighbours (final sigma) or is longer

Hit = tuple[str, bool, bool]  # (form key, inside an allowed string, written in lowercase)


def trie_pattern(forms: Iterable[str]) -> str:
    """One alternation of every form, shaped as a trie (a common prefix is tried once); a space in a form
    matches any white space."""
    root: dict[str, dict] = {}
    for f in forms:
        node = root
        for ch in f:
            node = node.setdefault(ch, {})
        node[""] = {}

    escaped: dict[str, str] = {" ": r"\s+"}

    def esc(ch: str) -> str:
        got = escaped.get(ch)
        if got is None:
            got = escaped[ch] = re.escape(ch)
        return got

    def emit(node: dict[str, dict]) -> str:
        chain = []  # one character after another, no form ending between them: written as they come
        while len(node) == 1 and "" not in node:
            ((ch, node),) = node.items()
            chain.append(esc(ch))
        alts = [esc(ch) + emit(node[ch]) for ch in sorted(node) if ch]
        if not alts:
            return "".join(chain)
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return "".join(chain) + (f"(?:{body})?" if "" in node else body)

    return emit(root)


def common_lead(forms: list[str]) -> str:
    """The characters every form opens with, up to its first space."""
    lead = os.path.commonprefix(forms)
    return lead.split(" ", 1)[0]


def word_matcher(forms: Iterable[str]) -> re.Pattern | None:
    """The forms as whole words. Where every form opens with the same characters (a short allow list), the
    pattern opens with them and looks behind them for the word start: the same matches, but ``re`` searches
    for a literal prefix instead of trying the look-behind at every position (twenty times faster)."""
    forms = list(forms)
    if not forms:
        return None
    lead = common_lead(forms)
    collecting = gc.isenabled()
    gc.disable()  # the parser makes a million short-lived objects and no cycle: collecting was most of the compile
    try:
        if lead:
            rest = trie_pattern(f[len(lead):] for f in forms)
            return re.compile(re.escape(lead) + rf"(?<!\w[\s\S]{{{len(lead)}}})(?:" + rest + r")(?!\w)")
        return re.compile(r"(?<!\w)(?:" + trie_pattern(forms) + r")(?!\w)")
    finally:
        if collecting:
            gc.enable()


def block_lists(texts: Iterable[str]) -> Iterator[list[str]]:
    """Texts grouped into the blocks they are matched in (about ``BLOCK_CHARS`` each, one text a line)."""
    buf: list[str] = []
    n = 0
    for t in texts:
        buf.append(t)
        n += len(t) + 1
        if n >= BLOCK_CHARS:
            yield buf
            buf, n = [], 0
    if buf:
        yield buf


def scan_spans(block: str, matcher: re.Pattern, allowed: re.Pattern | None) -> Iterator[tuple[int, Hit]]:
    """Every hit in one text, with its offset."""
    folded = fold_same_length(block)
    hits = list(matcher.finditer(folded))
    if not hits:
        return
    starts: list[int] = []
    ends: list[int] = []
    if allowed is not None:
        for a in allowed.finditer(folded):
            starts.append(a.start())
            ends.append(a.end())
    for m in hits:
        s, e = m.span()
        k = bisect_right(starts, s) - 1
        inside = k >= 0 and e <= ends[k] and (starts[k], ends[k]) != (s, e)
        yield s, (" ".join(m.group(0).split()), inside, not block[s:s + 1].isupper())


def join_tokens(forms: Iterable[str]) -> frozenset[str]:
    """The tokens of the forms that a space follows: what a match running over a line break ends the line with."""
    return frozenset(t for f in forms for t in f.split(" ")[:-1])


@dataclass
class Scanner:
    """Hits of ``matcher`` (with ``allowed`` for "inside an allowed string") in streams of texts; ``joins``:
    ``join_tokens`` of the forms of both. The cache lives as long as the scanner: scan the files that share
    text with one scanner. ``prior``: units' hits an earlier audit found that still hold (``audit_state``),
    taken instead of matching the unit again."""

    matcher: re.Pattern
    allowed: re.Pattern | None
    joins: frozenset[str]
    cache: dict[str, Counter] = field(default_factory=dict)
    prior: dict[str, tuple[tuple[Hit, int], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._join_len = max(map(len, self.joins), default=0)
        self._join_ends = {t[-1] for t in self.joins}
        self._last_char: dict[str, bool] = {}

    def scan(self, texts: Iterable[str], shared: bool = True) -> Counter:
        """The hits in ``texts``; ``shared`` false: a file that shares little text with others, matched block by
        block without the cache (cutting a block into units costs more than matching what repeats)."""
        hits: Counter = Counter()
        for block in block_lists(texts):
            whole = "\n".join(block)
            if not shared or CONTEXT_FOLD.search(whole):
                hits.update(hit for _, hit in scan_spans(whole, self.matcher, self.allowed))
                continue
            units = list(self._units(block))
            self._fill(self._known([u for u in dict.fromkeys(units) if u not in self.cache]))
            for u in units:
                got = self.cache[u]
                if got:
                    hits.update(got)
        return hits

    def _known(self, units: list[str]) -> list[str]:
        """The units not matched yet, after those ``prior`` knows are taken from it."""
        if not self.prior:
            return units
        new = []
        for u in units:
            got = self.prior.get(u)
            if got is None:
                new.append(u)
            else:
                self.cache[u] = Counter(dict(got))
        return new

    def units(self) -> dict[str, tuple[tuple[Hit, int], ...]]:
        """Every unit matched or looked up, with its hits (``prior``'s form: what ``audit_state`` keeps)."""
        return {u: tuple(c.items()) for u, c in self.cache.items()}

    def _fill(self, new: list[str]) -> None:
        """Match the units not seen yet in one call, joined by line breaks in the block's order: no match runs
        over the break after a unit that closes, and the one unit that may not close is the block's last."""
        if not new:
            return
        order = list(new)
        offsets: list[int] = []
        n = 0
        for u in order:
            offsets.append(n)
            self.cache[u] = Counter()
            n += len(u) + 1
        for s, hit in scan_spans("\n".join(order), self.matcher, self.allowed):
            self.cache[order[bisect_right(offsets, s) - 1]][hit] += 1

    def _units(self, block: list[str]) -> Iterator[str]:
        """The block cut at the line breaks no match can run over; a unit's trailing white space dropped
        (no match ends in it, and a line break follows it in the block)."""
        unit: list[str] = []
        for t in block:
            unit.append(t)
            if self._closes(t):
                yield "\n".join(unit).rstrip()
                unit = []
        if unit:
            yield "\n".join(unit).rstrip()

    def _closes(self, text: str) -> bool:
        """Whether no match can run over the line break after ``text``: its last token (in the folded text,
        where a spacing accent is a space) does not end with a join token. A text of white space only closes
        nothing (the token before the break is further back)."""
        s = text.rstrip()
        if not s:
            return False
        last = self._last_char.get(s[-1])
        if last is None:  # whether a text ending with this character closes whatever comes before it
            folded = fold_same_length(s[-1])
            last = self._last_char[s[-1]] = not folded.isspace() and folded not in self._join_ends
        if last:
            return True
        size = self._join_len + 16
        while True:
            tail = fold_same_length(text[-size:]).rstrip()
            if len(tail) > self._join_len or size >= len(text):
                break
            size *= 4
        if not tail:
            return False
        token = tail.split()[-1]
        return not any(token[i:] in self.joins for i in range(max(0, len(token) - self._join_len), len(token)))
