"""The one small interface every recognizer implements, and the registry that finds them by name.

A recognizer is a one-file plug-in (``anonymize/recognizers/*.py``): it declares
the categories it assigns, gets the per-language rules from YAML, finds mentions
in a tokenized segment, and says for each mention which rule fired. ``validate_result``
is the hook for check digits (NIF, IBAN) and similar tests of a candidate string.

The engine builds every registered recognizer the same way (``Recognizer.build``, with the recognizer's
options and the settings it names in ``settings``) and runs them the same way. For each segment it computes
the shared analysis once (:class:`SegmentAnalysis`: the proper-noun chains, as Presidio hands its
recognizers ``NlpArtifacts``); a recognizer reads it, and what it learns for the rest of the document (an
acronym after its long form) it tells the analysis, which the engine then adds to the document's memory.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import regex
from spacy.tokens import Doc

from ..corpora.model import Mention
from .chains import Chain, ChainRules
from .lexicons import Lexicons

REGISTRY: dict[str, type[Recognizer]] = {}


def register(name: str) -> Callable[[type[Recognizer]], type[Recognizer]]:
    def deco(cls: type[Recognizer]) -> type[Recognizer]:
        cls.name = name
        REGISTRY[name] = cls
        return cls

    return deco


@dataclass
class DocumentMemory:
    """What a recognizer may remember across the segments of one document (acronyms after long forms)."""

    acronyms: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # acronym -> (category, subtype, long form)
    lower_vocab: set[str] = field(default_factory=set)  # words the document also writes in lower case
    act_document: bool = False  # the document is a legal act: its first unit is an act's numbered title


Acronym = tuple[str, str, str]  # (category, subtype, long form)


@dataclass
class SegmentAnalysis:
    """What the engine computes once per segment and every recognizer shares: the proper-noun chains (with
    the folded rules they were read with), whether the segment is running text, and the acronyms learned in
    it. Recognizers never write into the document's memory: the engine adds ``learned`` to it after the
    segment."""

    chains: list[Chain]
    rules: ChainRules
    doc: Doc
    memory: DocumentMemory
    learned: dict[str, Acronym] = field(default_factory=dict)

    def acronym(self, word: str) -> Acronym | None:
        """An acronym introduced after its long form, earlier in this segment or in the document."""
        return self.learned.get(word) or self.memory.acronyms.get(word)

    def learn_acronym(self, word: str, category: str, subtype: str, long_form: str) -> None:
        self.learned[word] = (category, subtype, long_form)

    @cached_property
    def running_text(self) -> bool:
        """More lower-case words than not: running text, not a heading in capitals."""
        words = [t.text for t in self.doc if t.text.isalpha() and len(t.text) > 1]
        return sum(t.islower() for t in words) * 2 > len(words)


@dataclass
class Segment:
    """A segment as recognizers see it: text, spaCy tokens, the shared analysis (``None`` where a caller runs
    one pattern recognizer on bare text) and the mentions earlier recognizers found."""

    text: str
    doc: Doc
    memory: DocumentMemory
    found: list[Mention] = field(default_factory=list)
    analysis: SegmentAnalysis | None = None
    # (characters covered by found[:n], n): ``found`` only grows, so the map grows with it
    _covered: tuple[bytearray, int] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def folded(self) -> str:
        """``gate_fold(text)``, once per segment: what the case-blind gates read."""
        return gate_fold(self.text)

    def covered(self, start: int, end: int) -> bool:
        found = self.found
        if len(found) < 16 or start >= end:  # (a loop, not ``any`` over a generator: asked 85,000 times)
            for m in found:
                if m.start < end and start < m.end:
                    return True
            return False
        occ, n = self._covered or (bytearray(len(self.text) + 1), 0)
        if n > len(found):  # a new list: start the map again
            occ, n = bytearray(len(self.text) + 1), 0
        for m in found[n:]:
            occ[m.start:m.end] = b"\x01" * (m.end - m.start)
        self._covered = (occ, len(found))
        return occ.find(1, start, end) >= 0  # in time of the span, not of the mentions (long segments)


class Recognizer:
    """Base class: subclasses set ``assigns`` and implement ``find``."""

    name: ClassVar[str] = "base"
    assigns: ClassVar[tuple[str, ...]] = ()
    # keys of the ``anonymize`` settings the recognizer reads, handed to it among its options (``deny``)
    settings: ClassVar[tuple[str, ...]] = ()

    def __init__(self, rules: dict[str, Any], lex: Lexicons, options: dict[str, Any] | None = None) -> None:
        self.rules = rules
        self.lex = lex
        self.options = options or {}

    @classmethod
    def build(cls, rules: dict[str, Any], lex: Lexicons, options: dict[str, Any]) -> list[Recognizer]:
        """The recognizers a configuration entry makes: one, unless a plug-in says otherwise (one per model)."""
        return [cls(rules, lex, options)]

    def prepare(self, texts: list[str]) -> None:
        """Called with a document's segments before they are recognized one by one (a model batches them)."""

    def document_state(self) -> Any:
        """What ``prepare`` kept for the document, hashable, for the engine's memo of repeated texts
        (segment_memo.py); a recognizer that overrides ``prepare`` says it here, or the memo is off."""
        return None

    def memo_safe(self) -> bool:
        """Whether ``find`` reads no per-document state but what ``document_state`` names."""
        cls = type(self)
        return cls.prepare is Recognizer.prepare or cls.document_state is not Recognizer.document_state

    def find(self, seg: Segment) -> list[Mention]:
        raise NotImplementedError

    def validate_result(self, text: str) -> bool:
        """Return False to reject a candidate (e.g. a failed check digit)."""
        return True

    def mention(self, seg: Segment, start: int, end: int, category: str, rule: str, subtype: str = "",
                score: float = 1.0) -> Mention:
        return Mention(start=start, end=end, category=category, text=seg.text[start:end], recognizer=self.name,
                       rule=rule, subtype=subtype, score=score)


def numbered_act_nouns(rules: dict) -> list[str]:
    """The act nouns whose "n.º N/YYYY" numbers a public act: not an agreement's (``Protocolo de Colaboração n.º
    4/2024`` between a town and an association, ``Acordo de Parceria n.º 12/2023``: numbered by their parties)."""
    return [n for n in rules["act_nouns"] if n.split()[0] not in rules["agreement_nouns"]]


def alternation(words: list[str]) -> str:
    """A regex matching any of ``words``, longest first, built as a trie (``no|nos|nº`` -> ``n(?:o(?:s)?|º)``).

    A flat alternation of a hundred trigger words is tried word by word at every position; the trie
    shares prefixes, which makes the big trigger patterns about twice as fast.
    """
    root: dict = {}
    for w in set(words):
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [regex.escape(ch) + emit(node[ch]) for ch in sorted(k for k in node if k)]
        if not alts:
            return ""
        end = "" in node
        body = alts[0] if len(alts) == 1 and not end else "(?:" + "|".join(alts) + ")"
        return body + "?" if end else body

    return emit(root)


def gate_fold(text: str) -> str:
    """``text`` case-folded as a case-blind pattern reads it: each character that matches a letter case-blind
    is that letter here (``ſ`` is an s; ``İ``, which folds to an i and a combining dot, is an i; ``ı``, which
    ``regex`` matches to ``I``, is an i)."""
    return text.casefold().replace("i\u0307", "i").replace("ı", "i")


def case_blind_gate(words: list[str]) -> re.Pattern:
    """The gate of words a pattern reads case-blind: the words folded by ``gate_fold``, a ``literal_gate`` to
    search in ``Segment.folded`` (each character that matches a word's letter case-blind folds to that letter's
    fold: tests/test_speed_gates.py). A word is cut before "ß": ``regex`` matches it case-blind to a letter that
    ``str.casefold`` leaves apart (U+1DF95)."""
    return literal_gate(alternation(sorted({gate_fold(w.split("ß")[0]) for w in words})))


def literal_gate(pattern: str) -> re.Pattern:
    """A gate of literal words (an ``alternation``, ``\\s`` at most besides), compiled by the standard library's
    ``re``: it finds such words three to four times faster than ``regex`` and matches the same strings (``re``'s
    ``\\s`` takes every space ``regex``'s does; tests/test_speed_gates.py)."""
    return re.compile(pattern)


class Gated:
    """A costly pattern scanned only in texts where a cheap one finds a piece that every match of it holds.

    ``regex`` tries a pattern that opens with a look-behind or an alternation at every position of a text;
    the same words alone (``Street|Road|...``, the month names) are found several times faster, and most
    segments hold none. Each gate must be a necessary condition: a match of ``pattern`` contains a match
    of at least one gate (e.g. the pattern's own alternatives, or its word list with the same flags).
    """

    __slots__ = ("gates", "pattern")

    def __init__(self, pattern: regex.Pattern, *gates: regex.Pattern | re.Pattern) -> None:
        self.pattern = pattern
        self.gates = gates

    def finditer(self, text: str) -> Iterator[regex.Match]:
        for g in self.gates:  # (a loop, not ``any`` over a generator: called ninety thousand times per 8,000 segments)
            if g.search(text):
                return self.pattern.finditer(text)
        return iter(())
