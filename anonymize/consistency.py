"""Corpus-wide consistency: an entity found anywhere is masked wherever else it appears, on both sides.

Recognition works document by document, and propagation spreads a found name within its document.
A name the rules catch in one document ("Sr. Rui Tavares") but not in another (a bare "Rui Tavares"
in a heading) would stay visible there, though the key store holds it as an original: a leak. This
pass collects every found entity string of the corpus (the same forms document propagation uses:
persons, their surnames, organisations, addresses; and identifiers) and marks their other
occurrences. Matching is by word sequence, accent- and case-insensitive (``Marés Pescas, Lda.`` =
``MARES PESCAS LDA``); a person, organisation or address must start with a capital where it is found.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import regex

from ..corpora.model import Mention
from ..text import fold, fold_same_length
from .numbering import EntityNumbers

WORD = regex.compile(r"[\p{L}\p{N}]+")
MAX_WORDS = 10
CAPITALIZED_CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS")
CAPITALIZED_BEFORE = regex.compile(r"\p{Lu}[\p{L}'’.-]*\s+\Z")  # a capitalized word right before a name's part
CAPITALIZED_AFTER = regex.compile(r"\s+\p{Lu}")


def stands_alone(text: str, start: int, end: int) -> bool:
    """Whether a word has no capitalized word right before or after it (a given name alone, not a part of
    another name: "São Paulo", nor of a name the reviewer allowed: "Marta" of an allowed "Marta X")."""
    return not CAPITALIZED_BEFORE.search(text, max(0, start - 40), start) and not CAPITALIZED_AFTER.match(text, end)


@dataclass(frozen=True, slots=True)
class FormKind:
    """What a form remembers of the mention it came from; the dot: whether that ended with one (``Lda.``: an
    occurrence takes the dot too)."""

    category: str
    subtype: str
    rule: str
    dotted: bool


def identifier_form(text: str) -> bool:
    """An identifier long enough to be masked wherever it appears: four digits or more, six characters or more
    (not a bare year)."""
    return sum(c.isdigit() for c in text) >= 4 and len(text) >= 6


def form_key(text: str) -> str:
    """The words of a form, folded, space-separated: what occurrences are compared by."""
    return " ".join(WORD.findall(fold(text)))


class CorpusForms:
    """Entity forms of a whole corpus, and where they occur in a text.

    ``forms`` maps a form key to an index into ``kinds``, the few distinct :class:`FormKind` there are (a million forms then cost a dict slot each, not a tuple each);
    ``firsts`` maps every key's first word to the word counts of the keys it starts (longest first), so that a
    text is only looked into at words that can start a form, and only for the lengths that exist.
    """

    def __init__(self, propagation_forms=None) -> None:
        self._propagation_forms = propagation_forms
        self.forms: dict[str, int] = {}
        self.kinds: list[FormKind] = []
        self._kind_index: dict[FormKind, int] = {}
        self.firsts: dict[str, list[int]] = {}

    def __len__(self) -> int:
        return len(self.forms)

    def state(self) -> tuple[dict[str, int], list[FormKind]]:
        """What a worker needs to find forms (saved in the run's checkpoints)."""
        return self.forms, self.kinds

    @classmethod
    def from_state(cls, state: tuple[dict[str, int], list[FormKind]]) -> CorpusForms:
        forms = cls()
        forms.forms, forms.kinds = state
        for key in forms.forms:
            forms._note_first(key)
        return forms

    @staticmethod
    def kind_of(m: Mention) -> FormKind:
        """What a form remembers of the mention it came from."""
        return FormKind(m.category, m.subtype, m.rule, m.text.rstrip().endswith("."))

    def _add(self, key: str, m: Mention) -> None:
        self._add_kind(key, self.kind_of(m))

    def _add_kind(self, key: str, kind: FormKind) -> None:
        if key and key not in self.forms and len(key.split()) <= MAX_WORDS:
            if kind not in self._kind_index:
                self._kind_index[kind] = len(self.kinds)
                self.kinds.append(kind)
            self.forms[key] = self._kind_index[kind]
            self._note_first(key)

    def _note_first(self, key: str) -> None:
        words = key.split(" ")
        lengths = self.firsts.setdefault(words[0], [])
        if len(words) not in lengths:
            lengths.append(len(words))
            lengths.sort(reverse=True)

    def merge(self, state: tuple[dict[str, int], list[FormKind]]) -> None:
        """Add the forms of another collection (e.g. one chunk's), in its order; a form already here keeps its
        kind, so merging chunk by chunk gives what adding their documents one by one gives."""
        forms, kinds = state
        for key, k in forms.items():
            self._add_kind(key, kinds[k])

    def add_document(self, mentions: list[Mention]) -> None:
        """The forms of one document's mentions (scored and filtered as document propagation does)."""
        assert self._propagation_forms is not None
        for key, m in self._propagation_forms(mentions).items():
            self._add(form_key(key), m)
        for m in mentions:
            if m.category == "NAMEID" and identifier_form(m.text):
                self._add(form_key(m.text), m)
                compact = "".join(WORD.findall(fold(m.text)))
                self._add(compact, m)

    def find(self, text: str, taken: Iterable[Mention] = ()) -> list[tuple[int, int, str]]:
        """(start, end, key) of forms in ``text`` that overlap none of ``taken``, longest first, left to right."""
        if not self.forms:
            return []
        folded = fold_same_length(text)
        words = WORD.findall(folded)
        firsts, forms = self.firsts, self.forms
        if firsts.keys().isdisjoint(words):
            return []  # most texts: no word starts a form (one C-level pass instead of a match object a word)
        # where the words are is needed only once a form matched (most first words start none here)
        bounds: list[tuple[int, int]] | None = None
        spans = bytearray(len(text) + 1)  # 1 where a mention is taken: a check in time of the span, not of
        for m in taken:                  # the mentions (a long segment made it quadratic)
            spans[m.start:m.end] = b"\x01" * (m.end - m.start)
        out = []
        n_words = len(words)
        i = 0
        while i < n_words:
            lengths = firsts.get(words[i])
            if lengths is None:
                i += 1
                continue
            hit = None
            for n in lengths:
                if n > n_words - i:
                    continue
                key = words[i] if n == 1 else " ".join(words[i:i + n])
                if key not in forms:
                    continue
                if bounds is None:
                    bounds = [m.span() for m in WORD.finditer(folded)]
                if (hit := self._acceptable(text, bounds, i, n, key, spans)) is not None:
                    break  # the longest form that fits here ("European Parliament" when the longer
                    # "European Parliament and of the Council" overlaps a mention already there)
            if hit is None:
                i += 1
                continue
            out.append(hit)
            i += n
        return out

    def _acceptable(self, text: str, bounds: list[tuple[int, int]], i: int, n: int, key: str,
                    spans: bytearray) -> tuple[int, int, str] | None:
        """The occurrence of ``key`` at word ``i`` if it is whole words, overlaps no mention, and starts with a
        capital where its category needs one."""
        s, e = bounds[i][0], bounds[i + n - 1][1]
        kind = self.kinds[self.forms[key]]
        if kind.dotted and text[e:e + 1] == ".":
            e += 1
        boundary = (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum())
        ok = boundary and spans.find(1, s, e) < 0 and (
            kind.category not in CAPITALIZED_CATEGORIES or text[s].isupper()) and (
            kind.rule != "given-name" or stands_alone(text, s, e))  # (as in the document: "Paulo" of "São Paulo")
        return (s, e, key) if ok else None

    def mentions(self, text: str, taken: Iterable[Mention], numbers: EntityNumbers) -> list[Mention]:
        """New mentions for the forms found in ``text``, each numbered by its form in this scope (``numbers``:
        the number of the same form already there, else a new one)."""
        out = []
        for s, e, key in self.find(text, taken):
            kind = self.kinds[self.forms[key]]
            out.append(Mention(s, e, kind.category, text[s:e], "consistency", f"corpus:{kind.rule}", kind.subtype,
                               0.9, entity=numbers.of(key)))
        return out
