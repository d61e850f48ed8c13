"""Target words as names: a span grown to the whole name, the names inside an organisation's mention, whether an
acronym fits a long form, whether pieces are one name. The words these read (joiners, prepositions, titles) are
language data (:mod:`paranon.align.language`)."""

from __future__ import annotations

from bisect import bisect_right

import regex

from ..corpora.model import Mention
from ..text import fold
from .language import TransferWords

WORDS = TransferWords.of("pt", "en")
ACRONYM = regex.compile(r"\p{Lu}[\p{Lu}\d&.-]{1,9}")  # an organisation's acronym: IPQ, ASF, CMVM
CAPITALIZED = regex.compile(r"^[\p{Lu}\d]")
GUARD_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}'’-]*")  # a name part the leak guard looks for
NON_SPACE = regex.compile(r"\S+")
PREPOSITION_GAP = regex.compile(r"\s+(?:" + "|".join(sorted(map(regex.escape, WORDS.prepositions), key=len, reverse=True))
                                + r")\s+(?:the\s+)?")
# a capitalized word or an initial right after a mention, or right before it ("<P> Mestre", "M. <P>")
WORD_AFTER = regex.compile(r"\s+(\p{Lu}\.(?!\p{L})|\p{Lu}[\p{L}'’-]*(?![\p{L}\p{N}]))")
WORD_BEFORE = regex.compile(r"(?<![\p{L}\p{N}.])(\p{Lu}[\p{L}'’-]*|\p{Lu}\.)\s+$")
# a body's fields listed with commas up to the last "and": "Insurance Information, Mediation and Arbitration Centre"
FIELD_LIST = r",\s+(?=(?:\p{Lu}[\p{L}'’-]*\s+){0,2}(?:and|&)\s+\p{Lu})"
FIELD_LIST_BEFORE = regex.compile(r"\p{Lu}[\p{L}'’-]*" + FIELD_LIST)  # the field that opens such a list
ALIGNMENT_WINDOW = 4  # tokens around a name's aligned words where its capitalized form is looked for


def nearest_capitalized(tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, free,
                          window: int = ALIGNMENT_WINDOW) -> int | None:
    """The free capitalized word nearest to tokens lo..hi within ``window`` tokens (right first on a tie),
    not a title and not the first word of the segment."""
    for d in range(1, window + 1):
        for j in (hi + d, lo - d):
            if 0 < j < len(toks) and free(*toks[j]) and CAPITALIZED.match(tgt[toks[j][0]:toks[j][1]]) \
                    and tgt[toks[j][0]:toks[j][1]].rstrip(".").lower() not in WORDS.titles:
                return j
    return None

APOSTROPHES = {"'", "’"}
JOINERS = frozenset({"and", "or", ";"})  # words that join two names in the target
JOINED_SOURCE = regex.compile(r"(?<![\p{L}])(?:e|ou|and|or)(?![\p{L}])|[&;]")  # a source name that joins two itself


def grow(tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, free) -> tuple[int, int]:
    """Close gaps and extend over adjacent capitalized words (and joiners between them)."""
    def cap(j: int) -> bool:
        return bool(CAPITALIZED.match(tgt[toks[j][0]:toks[j][1]]))

    def word(j: int) -> str:
        return tgt[toks[j][0]:toks[j][1]].lower()

    def ok(j: int) -> bool:
        return 0 <= j < len(toks) and free(*toks[j]) and not is_punct(tgt, toks[j])

    def possessive(j: int) -> bool:  # "Workers' Federation": a plural's apostrophe between two capitalized words
        return 0 <= j < len(toks) and free(*toks[j]) and tgt[toks[j][0]:toks[j][1]] in APOSTROPHES and ok(j - 1) and cap(j - 1) \
            and word(j - 1).endswith("s") and ok(j + 1) and cap(j + 1)

    while True:  # left: capitalized words, or up to two joiners after one ("Directorate-General for the")
        if ok(lo - 1) and cap(lo - 1) and word(lo - 1) != "the":
            lo -= 1
            continue
        if lo >= 2 and possessive(lo - 1):
            lo -= 2
            continue
        k = lo - 1
        while k >= 0 and lo - k <= 2 and ok(k) and word(k) in WORDS.joiners:
            k -= 1
        if k < lo - 1 and ok(k) and cap(k) and word(k) != "the":
            lo = k
        else:
            break
    while True:  # right: capitalized words, or joiners followed by one ("for the Treasury")
        if ok(hi + 1) and cap(hi + 1):
            hi += 1
            continue
        if possessive(hi + 1):
            hi += 2
            continue
        k = hi + 1
        while k < len(toks) and k - hi <= 2 and ok(k) and word(k) in WORDS.joiners:
            k += 1
        if k > hi + 1 and ok(k) and cap(k):
            hi = k
        else:
            break
    return lo, hi


def field_list_start(tgt: str, toks: list[tuple[int, int]], lo: int, free) -> int:
    """The first token of a name grown to ``lo`` when fields listed with commas come before it ("Insurance
    Information, Mediation and Arbitration Centre" grown to "Mediation ..."), grown over them; else ``lo``."""
    while lo >= 2 and tgt[toks[lo - 1][0]:toks[lo - 1][1]] == "," and free(*toks[lo - 2]) \
            and (f := FIELD_LIST_BEFORE.match(tgt, toks[lo - 2][0])) and f.end() == toks[lo][0]:
        lo, _ = grow(tgt, toks, lo - 2, lo - 2, free)
    return lo


NEIGHBOUR_REACH = 3  # source tokens either side of a mention looked at for a linked neighbour
RUN_BETWEEN = 6  # the most words a name between its neighbours' translations may have


def run_between(tgt: str, toks: list[tuple[int, int]], first: int, last: int, linked: dict[int, list[int]],
                free) -> tuple[int, int] | None:
    """The capitalized words between the translations of a mention's neighbours, for a mention whose own links
    are unusable (its placeholder linked to a word another step took: "inscrita no <P>, tomo" / "entered in the
    Madrid Commercial Register, volume"): the target tokens after the nearest linked word before the mention's
    source tokens ``first``..``last`` and before the nearest one after, without lower-case words and punctuation
    at the edges, if all of them are free capitalized words and joiners; else None."""
    def linked_near(i: int, step: int) -> list[int]:
        for d in range(NEIGHBOUR_REACH):
            js = [j for j in linked.get(i + step * d, ()) if j < len(toks) and not is_punct(tgt, toks[j])]
            if js:
                return js
        return []

    left, right = linked_near(first - 1, -1), linked_near(last + 1, 1)
    if not left or not right or max(left) >= min(right):
        return None
    lo, hi = max(left) + 1, min(right) - 1

    def word(j: int) -> str:
        return tgt[toks[j][0]:toks[j][1]]

    while lo <= hi and (is_punct(tgt, toks[lo]) or not CAPITALIZED.match(word(lo))):
        lo += 1
    while hi >= lo and (is_punct(tgt, toks[hi]) or not CAPITALIZED.match(word(hi))):
        hi -= 1
    if lo > hi or hi - lo >= RUN_BETWEEN or not all(
            free(*toks[j]) and (CAPITALIZED.match(word(j)) or word(j).lower() in WORDS.joiners) for j in range(lo, hi + 1)):
        return None
    return lo, hi


def tokens_within(tokens: list[tuple[int, int]], start: int, end: int) -> list[int]:
    """Indexes of the tokens (in text order, not overlapping) that overlap [start, end), found by bisection."""
    j = max(0, bisect_right(tokens, (start, float("inf"))) - 1)
    out = []
    while j < len(tokens) and tokens[j][0] < end:
        if tokens[j][1] > start:
            out.append(j)
        j += 1
    return out


def initials_fit(acronym: str, long: str) -> bool:
    """Whether an acronym can stand for a long form: two thirds of its letters or more are initials of the long
    form's content words, in any order (IPQ for "Portuguese Institute for Quality"; not EEC for "Regulation")."""
    initials = {w[0].lower() for w in GUARD_WORD.findall(long) if w.lower() not in WORDS.joiners}
    letters = {c.lower() for c in acronym if c.isalpha()}
    return len(initials) >= 2 and bool(letters) and len(letters & initials) * 3 >= 2 * len(letters)


def visible_between(text: str, ms: list[Mention]) -> bool:
    """Whether a word other than a joiner shows between consecutive mentions (sorted): "X – TRANSPORTES E Y"
    is one name in pieces, "Filipa Nogueira and Brightwell Logistics, Ltd" two names."""
    return any(any(w.lower() not in WORDS.joiners for w in GUARD_WORD.findall(text[a.end:b.start]))
               for a, b in zip(ms, ms[1:], strict=False))


def joined_by_preposition(text: str, ms: list[Mention]) -> bool:
    """Whether only a preposition lies between consecutive mentions (sorted): "<P> of <ORG>" in "Bank of China
    Limited" is one name in pieces ("and" may join two names; "of" inside a company's name does not)."""
    return len(ms) > 1 and all(PREPOSITION_GAP.fullmatch(text, a.end, b.start) for a, b in zip(ms, ms[1:], strict=False))


def span(m: Mention, text: str, start: int, end: int) -> Mention:
    return Mention(start, end, m.category, text[start:end], m.recognizer, m.rule, m.subtype, entity=m.entity)


def cores(text: str) -> list[str]:
    """The names inside an organisation mention, after each preposition, longest first.

    ``Conselho de Administração da Marés Pescas, Lda.`` -> ``Administração da Marés Pescas, Lda.``,
    ``Marés Pescas, Lda.``; a core must start with a capital and have two letters or more.
    """
    words = list(NON_SPACE.finditer(text))
    out = []
    for k, w in enumerate(words[:-1]):
        if w.group().lower() in WORDS.prepositions:
            core = text[words[k + 1].start():]
            if CAPITALIZED.match(core) and sum(c.isalpha() for c in core) >= 2:
                out.append(core)
    return out


def is_punct(text: str, span: tuple[int, int]) -> bool:
    return not any(c.isalnum() for c in text[span[0]:span[1]])


def name_edges(tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, source: str,
               aligned: list[int] | tuple[int, ...] = ()) -> tuple[int, int]:
    """An aligned name without the lower-case words at its edges: a name starts and ends with a capitalized
    word, a number or a bracket ("the European Parliament from exercising" -> "European Parliament"), unless its
    source form ends in a lower-case word itself; and without what the alignment spanned beyond it
    (``beyond_the_name``)."""
    def lower(j: int) -> bool:
        w = tgt[toks[j][0]:toks[j][1]]
        return w[:1].isalpha() and w[:1].islower()

    lo, hi = beyond_the_name(tgt, toks, lo, hi, source, aligned)
    words = source.split()
    keep_right = bool(words) and words[-1][:1].islower()
    keep_left = bool(words) and words[0][:1].islower()
    while lo < hi and not keep_left and lower(lo):
        lo += 1
    while hi > lo and not keep_right and lower(hi):
        hi -= 1
    return lo, hi


def beyond_the_name(tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, source: str,
                    aligned: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """A name without a date or number after it when its source form holds no digit ("ACP-EU Council of Ministers
    of 23 and 24 May 2031"), and the side of an "and" (a comma) its source form does not hold that holds fewer of its
    aligned words ("the Director-General of the European Commission and the Minister for Foreign Affairs",
    "US Coast Guard, Lifesaving Division")."""
    if not any(c.isdigit() for c in source):
        digit = next((j for j in range(lo + 1, hi + 1) if tgt[toks[j][0]:toks[j][0] + 1].isdigit()), None)
        if digit is not None:
            hi = digit - 1
    joiners = (set() if JOINED_SOURCE.search(source) else JOINERS) | (set() if "," in source else {","})
    if joiners:
        for j in range(hi - 1, lo, -1):
            if tgt[toks[j][0]:toks[j][1]] in joiners:
                left = sum(lo <= a < j for a in aligned)
                right = sum(j < a <= hi for a in aligned)
                if right > left:
                    lo = j + 1
                elif left:
                    hi = j - 1
    return lo, hi


def _own(word: str, own: set[str], fold) -> bool:
    """Whether a word beside a mention is one of its entity's: a source word, or an initial with its dot whose
    entity spells that word out ("F." of "Francisco": ``own`` holds "f.")."""
    f = fold(word.rstrip("."))
    return f in own or len(f) == 1 and word.endswith(".") and f + "." in own


def own_words(text: str, mentions: list[Mention], words: dict[int, set[str]], fold) -> list[Mention]:
    """Each mention widened over the capitalized words and initials next to it that are words of its own entity's
    source text ("<P> Mestre" for "Ana Paula Mestre", "J. <P>" for "J. Leão Baptista", "F. <P>" for "Francisco
    Xavier Mata"): a word the steps left out and the guard let through as a common word. ``words``: folded
    source words by entity (a person's spelt-out names also as their initials with a dot, "f."); ``mentions``
    sorted, not overlapping."""
    out = list(mentions)
    for k, m in enumerate(out):
        own = words.get(m.entity)
        if not own:
            continue
        s, e = m.start, m.end
        limit = out[k + 1].start if k + 1 < len(out) else len(text)
        while (w := WORD_AFTER.match(text, e, limit)) and _own(w.group(1), own, fold):
            e = w.end()
        floor = out[k - 1].end if k else 0
        while (w := WORD_BEFORE.search(text, max(floor, s - 40), s)) and _own(w.group(1), own, fold):
            s = w.start()
        if (s, e) != (m.start, m.end):
            out[k] = span(m, text, s, e)
    return out


class MentionWords:
    """The words a source mention lends its English mention (:func:`own_words`), by entity: a person's folded
    words the leak guard would look for, its initials, and its spelt-out names as initials with a dot ("f.");
    an organisation's own words but its joiners, common words too ("Santa" of "Hospital de Santa Maria Maior":
    only a capitalized word right beside the organisation's English mention is taken). Memoized by mention text
    (a document names the same entities pair after pair); ``common``/``names``/``places``: folded word sets."""

    def __init__(self, common: set[str], names: set[str], places: set[str]) -> None:
        self.common, self.names, self.places = common, names, places
        self._memo: dict[tuple[str, str], frozenset[str]] = {}

    def __call__(self, src_mentions: list[Mention]) -> dict[int, set[str]]:
        words: dict[int, set[str]] = {}
        for m in src_mentions:
            if m.category in ("PERSON", "ORGANIZATION"):
                words.setdefault(m.entity, set()).update(self._of(m.category, m.text))
        return words

    def _of(self, category: str, text: str) -> frozenset[str]:
        got = self._memo.get((category, text))
        if got is None:
            if len(self._memo) > 100_000:
                self._memo.clear()
            ws = GUARD_WORD.findall(text)
            if category == "PERSON":
                got = frozenset([f for f in map(fold, ws) if len(f) == 1 or (
                    f not in self.common or f in self.names) and f not in self.places] +
                    [fold(w[0]) + "." for w in ws if w[:1].isupper()])
            else:
                got = frozenset(f for f in map(fold, ws) if len(f) > 1 and f not in WORDS.joiners)
            self._memo[category, text] = got
        return got
