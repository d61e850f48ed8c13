"""A repeated segment recognized once: translation memories repeat their segments (headings, formulas, articles'
titles), and recognition is a function of the text and of the few things it asks the document's memory.

Recognizing a text reads the document's memory through recording views (:class:`SeenSet` for the words the
document writes in lower case, :class:`SeenAcronyms` for the acronyms it defined): each answer the memory gave is
kept with the result. The same text later, with the same key (the act-document flag, whether the document writes
any word in lower case, the recognizers' per-document state: ``Recognizer.document_state``), takes the kept result
when its memory gives every kept answer again; otherwise it is recognized anew. The result is then the one a new
recognition would give, by construction: nothing else the recognizers read varies. A view lets a recognizer ask
only what it records (membership, ``get``, truthiness): any other use fails loudly rather than going unrecorded.
"""

from __future__ import annotations

from typing import Any

from ..corpora.model import Mention

MEMO_SIZE = 20_000  # texts kept per process (then it starts again)


class SeenSet:
    """A set's membership answers, recorded (``in`` and truthiness only)."""

    __slots__ = ("inner", "seen")

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: dict[str, bool] = {}

    def __contains__(self, item: str) -> bool:
        found = item in self.inner
        self.seen[item] = found
        return found

    def __bool__(self) -> bool:  # (part of the memo's key)
        return bool(self.inner)


class SeenAcronyms:
    """A document's acronyms, each ``get`` recorded."""

    __slots__ = ("inner", "seen")

    def __init__(self, inner: dict) -> None:
        self.inner = inner
        self.seen: dict[str, Any] = {}

    def get(self, word: str, default: Any = None) -> Any:
        value = self.inner.get(word, default)
        self.seen[word] = value
        return value


def copied(mentions: list[Mention]) -> list[Mention]:
    """New mention objects (later stages number and re-categorize mentions in place)."""
    return [Mention(m.start, m.end, m.category, m.text, m.recognizer, m.rule, m.subtype, m.score, m.entity)
            for m in mentions]


class SegmentMemo:
    """Recognition results by text and key, with the memory answers each one was computed from."""

    def __init__(self, size: int = MEMO_SIZE) -> None:
        self.size = size
        self.entries: dict[tuple, tuple[list[Mention], dict, dict[str, bool], dict[str, Any]]] = {}
        self.hits = 0

    def get(self, key: tuple, lower_vocab: Any, acronyms: dict) -> tuple[list[Mention], dict] | None:
        """(mentions, acronyms learned) for ``key`` if this memory answers as the one they came from."""
        entry = self.entries.get(key)
        if entry is None:
            return None
        mentions, learned, seen_words, seen_acronyms = entry
        for w, found in seen_words.items():
            if (w in lower_vocab) != found:
                return None
        for w, value in seen_acronyms.items():
            if acronyms.get(w) != value:
                return None
        self.hits += 1
        return copied(mentions), dict(learned)

    def clear(self) -> None:
        self.entries.clear()

    def put(self, key: tuple, mentions: list[Mention], learned: dict, words: SeenSet, acronyms: SeenAcronyms) -> None:
        if len(self.entries) >= self.size:
            self.entries.clear()
        self.entries[key] = (copied(mentions), dict(learned), words.seen, acronyms.seen)
