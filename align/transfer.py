"""Carry source-side mentions to the target side in three steps, then guard against leaks.

1. string match of each mention and its name variants, case/accent-insensitive,
   tolerant of dots, spaces, dashes and apostrophes;
2. patterns for what changes form across languages (dates, numbers), back-aligned
   to still-unmatched source mentions of the same category and value, plus
   identifiers present only in the target (numbered after the source's);
3. word alignment for the rest, the aligned words grown to a phrase boundary and
   bounded by already-matched neighbours.

The leak guard then masks any remaining occurrence of an original string, or of a
name part of it, in the target.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from dataclasses import dataclass, field

import regex

from ..anonymize.numbering import EntityNumbers
from ..corpora.model import Mention, remap_offsets
from ..text import fold, fold_same_length, tokenize

MONTHS_EN = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
             "november", "december"]
MONTHS_PT = ["janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
             "novembro", "dezembro"]
EN_DATE = regex.compile(
    r"(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>" + "|".join(MONTHS_EN) + r")(?:,?\s+(?P<y>\d{4}))?"
    r"|(?P<m2>" + "|".join(MONTHS_EN) + r")\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+)(?P<y2>\d{4})"
    r"|(?P<m3>" + "|".join(MONTHS_EN) + r")\s+(?P<y3>\d{4})"
    r"|(?P<n>(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?![\d/-])|\d{4}-\d{2}-\d{2})", regex.IGNORECASE)
PT_DATE = regex.compile(r"(?P<d>\d{1,2})?(?:\.?[º°o])?(?:\s+de)?\s*(?P<m>" + "|".join(MONTHS_PT) +
                        r")[a-z.]*(?:\s+de)?\s*(?P<y>\d{4})?", regex.IGNORECASE)
DASHES = "-‐‑‒–—―"
SEPARATORS = set(" .,-'’`´" + DASHES + "\u00a0\u00ad")
NON_SEPARATORS = regex.compile("[^\\s\\x1c-\\x1f" + regex.escape("".join(sorted(SEPARATORS))) + "]+")  # not _is_separator
CAPITALIZED = regex.compile(r"^[\p{Lu}\d]")
NUMERIC_DATE = regex.compile(r"(\d{1,4})[/.-](\d{1,2})[/.-](\d{2,4})")  # 12/03/2021, 2021-03-12
NUMBER_LIKE = regex.compile(r"[\p{L}\p{N}+(][\p{L}\p{N} ./()+-]*[\p{L}\p{N}]")  # an ID as written: +351 (21) 123 45 67
GUARD_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}'’-]*")  # a name part the leak guard looks for
NON_SPACE = regex.compile(r"\S+")
JOINERS = {"of", "and", "&", "for", "the", "de", "da", "do", "das", "dos", "e"}
NAMED_CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS")
EN_TITLES = {"mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam", "lord", "lady", "judge", "justice"}
ALIGNMENT_WINDOW = 4  # tokens around a name's aligned words where its capitalized form is looked for
PREPOSITIONS = {"de", "da", "do", "das", "dos", "of", "for"}
ACRONYM = regex.compile(r"\p{Lu}[\p{Lu}\d&.-]{1,9}")  # an organisation's acronym: IPQ, ASF, CMVM
MERGEABLE_GAP = regex.compile(r"(?:[\s,.;:&'’\-]|\b(?:of|and|for|the|de|da|do|das|dos|e)\b|\p{Lu}[\p{L}'’.-]*)*")


def _is_separator(ch: str) -> bool:
    return ch in SEPARATORS or ch.isspace()


def tolerant_form(text: str) -> tuple[str, frozenset[int]] | None:
    """A form to search tolerantly: its folded letters and digits, and where it had separators.

    ``Claus–Dieter`` -> (``clausdieter``, {5}): a separator may vary or vanish where the form had one
    (``Claus Dieter``, ``ClausDieter``) and may not appear elsewhere. None for forms under two letters.
    """
    chars: list[str] = []
    breaks = set()
    for ch in fold_same_length(text):
        if _is_separator(ch):
            if chars:
                breaks.add(len(chars))
            continue
        chars.append(ch)
    if len(chars) < 2:
        return None
    return "".join(chars), frozenset(b for b in breaks if b < len(chars))


GRAM = 4  # TolerantText: a long text's skeleton is indexed by its 4-character grams
INDEXED_TEXT = 20_000  # ... from this many characters


class TolerantText:
    """A folded text with its separators set aside, where tolerant forms are found with ``str.find``.

    Compiling one regex per form cost about a millisecond each (most of the transfer stage); this does
    the same matching with plain string search over the text's letters and digits.
    """

    def __init__(self, folded: str) -> None:
        self.text = folded
        self.pos: list[int] = []
        self.skel = ""
        self._ready = False  # the skeleton is made at the first search (many pairs have nothing to look for)
        self._grams: dict[str, list[int]] | None = None
        self._found: dict[tuple[str, frozenset[int]], list[tuple[int, int]]] = {}

    def _make(self) -> None:
        runs = []
        for m in NON_SEPARATORS.finditer(self.text):
            self.pos.extend(range(m.start(), m.end()))
            runs.append(m.group())
        self.skel = "".join(runs)
        self._ready = True

    def find(self, form: tuple[str, frozenset[int]]) -> list[tuple[int, int]]:
        """Character spans of the form in the text, whole words only, left to right, not overlapping. The
        list is remembered for the text (a form is searched once per mention of its entity: a segment that
        names one entity a thousand times searched it a thousand times); it is not to be modified."""
        got = self._found.get(form)
        if got is None:
            got = self._found[form] = self._find(form)
        return got

    def _find(self, form: tuple[str, frozenset[int]]) -> list[tuple[int, int]]:
        if not self._ready:
            self._make()
        skel, breaks = form
        n, pos, text, out = len(skel), self.pos, self.text, []
        if n >= GRAM and len(self.skel) > INDEXED_TEXT:  # a long text: candidates from its n-gram index
            candidates = self._candidates(skel)
            nxt = 0
            for i in candidates:
                if i < nxt or not self.skel.startswith(skel, i):
                    continue
                s, e = pos[i], pos[i + n - 1] + 1
                ok = (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum()) and all(
                    pos[i + k] == pos[i + k - 1] + 1 or k in breaks for k in range(1, n))
                if ok:
                    out.append((s, e))
                nxt = i + (n if ok else 1)
            return out
        i = self.skel.find(skel)
        while i >= 0:
            s, e = pos[i], pos[i + n - 1] + 1
            ok = (s == 0 or not text[s - 1].isalnum()) and (e == len(text) or not text[e].isalnum()) and all(
                pos[i + k] == pos[i + k - 1] + 1 or k in breaks for k in range(1, n))
            if ok:
                out.append((s, e))
            i = self.skel.find(skel, i + (n if ok else 1))
        return out

    def _candidates(self, skel: str) -> list[int]:
        """Where the skeleton's first ``GRAM`` characters occur (searching a long text once per form, for
        every mention of an entity-dense segment, was quadratic in its length)."""
        if self._grams is None:
            grams: dict[str, list[int]] = defaultdict(list)
            sk = self.skel
            for i in range(len(sk) - GRAM + 1):
                grams[sk[i:i + GRAM]].append(i)
            self._grams = grams
        return self._grams.get(skel[:GRAM], [])


def date_value(text: str, english: bool) -> tuple[int | None, int | None, int | None] | None:
    """(day, month, year) of a date in either language, for back-alignment."""
    num = NUMERIC_DATE.fullmatch(text.strip())
    if num:
        a, b, c = (int(x) for x in num.groups())
        if a > 31:
            return c, b, a
        return a, b, (c + 2000 if c < 50 else c + 1900) if c < 100 else c
    if english:
        m = EN_DATE.search(text)
        if not m:
            return None
        d = m.group("d") or m.group("d2")
        mon = m.group("m") or m.group("m2") or m.group("m3")
        y = m.group("y") or m.group("y2") or m.group("y3")
        return (int(d) if d else None, MONTHS_EN.index(mon.lower()) + 1, int(y) if y else None)
    m = PT_DATE.search(fold(text))
    if not m:
        return None
    return (int(m.group("d")) if m.group("d") else None, MONTHS_PT.index(m.group("m").lower()) + 1,
            int(m.group("y")) if m.group("y") else None)


def digits(text: str) -> str:
    return "".join(c for c in text if c.isalnum()).lower()


@dataclass
class TransferResult:
    mentions: list[Mention]
    guard_masks: int = 0
    untransferred: list[Mention] = field(default_factory=list)
    target_only: int = 0
    steps: dict[str, int] = field(default_factory=dict)


class _Found:
    """What one pair's transfer has found so far: the target mentions, the source mentions matched, the counts
    by step, and where the target is taken (``free`` in time of the span, not of the mentions found: a long
    entity-dense segment made it quadratic)."""

    def __init__(self, tgt: str) -> None:
        self.tgt = tgt
        self.tol = TolerantText(fold_same_length(tgt))
        self.found: list[Mention] = []
        self.matched: set[int] = set()
        self.steps = {"string": 0, "pattern": 0, "alignment": 0, "english": 0, "target_only": 0}
        self.occupied = bytearray(len(tgt) + 1)

    def free(self, s: int, e: int) -> bool:
        return self.occupied.find(1, s, e) < 0

    def occupy(self, x: Mention) -> None:  # every mention found, by whichever step: ``free`` sees it
        self.occupied[x.start:x.end] = b"\x01" * (x.end - x.start)

    def add(self, src: Mention, s: int, e: int, how: str) -> None:
        self.found.append(Mention(s, e, src.category, self.tgt[s:e], f"transfer:{how}", src.rule, src.subtype,
                                  entity=src.entity))
        self.occupy(self.found[-1])
        self.steps[how] += 1


def _tokens_of(tokens: list[tuple[int, int]], mentions: list[Mention]) -> dict[int, list[int]]:
    """Mention index -> the tokens wholly inside it (by bisection: not every token per mention)."""
    out: dict[int, list[int]] = {}
    starts = [s for s, _ in tokens]
    for k, am in enumerate(mentions):
        ti = bisect_left(starts, am.start)
        while ti < len(tokens) and tokens[ti][0] < am.end:
            if tokens[ti][1] <= am.end:
                out.setdefault(k, []).append(ti)
            ti += 1
    return out


class Transferrer:
    """Transfers one pair's mentions. ``id_finder`` finds identifiers in the target (language-independent)."""

    def __init__(self, id_finder=None, common_words: set[str] | None = None, places: set[str] | None = None,
                 names: set[str] | None = None, legal_tails: list[str] | None = None, english=None) -> None:
        self.id_finder = id_finder
        self.english = english  # align.english.EnglishRecognizer: the second line on an English target
        tails = sorted({t.rstrip(".") for t in legal_tails or []}, key=len, reverse=True)
        self.legal_tail = regex.compile(r"\s*,?\s*(?:" + "|".join(regex.escape(t) for t in tails) +
                                        r")\.?(?![\p{L}\p{N}])") if tails else None
        self.names = names or set()
        self.common = common_words or set()
        self.places = places or set()
        self._forms: dict[str, tuple[str, frozenset[int]] | None] = {}

    def _form(self, text: str) -> tuple[str, frozenset[int]] | None:
        got = self._forms.get(text, False)
        if got is False:
            if len(self._forms) > 200_000:
                self._forms.clear()
            got = self._forms[text] = tolerant_form(text)
        return got  # type: ignore[return-value]

    def transfer(self, src_mentions: list[Mention], src_anon_tokens: list[tuple[int, int]],
                 src_anon_mentions: list[Mention], tgt: str, links: list[tuple[int, int]],
                 variants: dict[int, set[str]] | None = None, numbers: EntityNumbers | None = None) -> TransferResult:
        """The target mentions of one pair, step by step, each bounded by what the steps before it found.
        ``numbers``: the pair's scope's, for entities found on the target side only."""
        numbers = numbers if numbers is not None else EntityNumbers()
        st = _Found(tgt)
        # 1. string match, longest first so that "Pedro Pérez" wins over "Pérez"; 1b. organisation cores
        self._by_string(src_mentions, variants or {}, st)
        self._by_core(src_mentions, st)
        # 2. patterns: dates and numbers that change form, back-aligned by value
        self._by_pattern(src_mentions, st)
        # 3. word alignment for the rest, bounded by what is already matched
        self._by_alignment(src_mentions, src_anon_tokens, src_anon_mentions, links, st)
        # 4. the English recognizer: a hit widens the one entity's mention it covers, takes the number of the
        # source entity it matches, or is a target-only entity
        if self.english is not None:
            self._english(src_mentions, tgt, st.found, st.matched, st.steps, numbers, st.occupy)
        # 5. a long form before its bracketed acronym: "Portuguese Institute for Quality (<N15>)" takes the
        # acronym's number when the source side names that entity in another form too
        self._long_forms(src_mentions, tgt, st.found, st.steps, st.free, st.occupy)
        # identifiers present only in the target get new numbers after the source's
        if self.id_finder is not None:
            for s, e, cat in self.id_finder(tgt):
                if st.free(s, e):
                    st.found.append(Mention(s, e, cat, tgt[s:e], "transfer:target_only", "target-only",
                                            entity=numbers.new()))
                    st.occupy(st.found[-1])
                    st.steps["target_only"] += 1
        result = TransferResult(sorted(st.found, key=lambda x: x.start), steps=st.steps)
        result.untransferred = [m for k, m in enumerate(src_mentions) if k not in st.matched]
        result.target_only = st.steps["target_only"]
        self._guard(src_mentions, tgt, st.tol, result)
        self._tidy(tgt, result)
        return result

    def _by_string(self, src_mentions: list[Mention], variants: dict[int, set[str]], st: _Found) -> None:
        """Each mention's forms (its entity's variants, an inverted name turned round) found as written,
        tolerant of case, accents and separators; longest mention first."""
        tgt = st.tgt
        for k in sorted(range(len(src_mentions)), key=lambda k: -len(src_mentions[k].text)):
            m = src_mentions[k]
            forms = {m.text} | variants.get(m.entity, set())
            if "," in m.text and m.category == "PERSON":
                head, _, given = m.text.partition(",")
                forms.add(f"{given.strip()} {head.strip()}")
            for form in sorted(forms, key=len, reverse=True):
                tf = self._form(form)
                if tf is None:
                    continue
                hits = [(a, b) for a, b in st.tol.find(tf) if st.free(a, b)]
                for a, e in hits:
                    if form.endswith(".") and tgt[e:e + 1] == ".":
                        e += 1  # keep an abbreviation's final dot (Lda.) inside the mention
                    st.add(m, a, e, "string")
                if hits:
                    st.matched.add(k)
                    break

    def _by_core(self, src_mentions: list[Mention], st: _Found) -> None:
        """An organisation whose head is translated ("Conselho de Administração da X, Lda." -> "Board of
        Directors of X, Lda."): its name after a preposition matched, then grown over the translated head."""
        tgt = st.tgt
        for k, m in enumerate(src_mentions):
            if k in st.matched or m.category != "ORGANIZATION":
                continue
            for core in _cores(m.text):
                if fold(core).strip() in self.places:
                    continue
                tf = self._form(core)
                hits = [(a, b) for a, b in st.tol.find(tf) if st.free(a, b)] if tf else []
                if hits:
                    tgt_tokens = tokenize(tgt)
                    for ha, hb in hits:
                        idx = _tokens_within(tgt_tokens, ha, hb)
                        lo, hi = self._grow(tgt, tgt_tokens, idx[0], idx[-1], st.free)
                        e = max(hb, tgt_tokens[hi][1])
                        if core.endswith(".") and tgt[e:e + 1] == ".":
                            e += 1
                        st.add(m, tgt_tokens[lo][0], e, "string")
                    st.matched.add(k)
                    break

    @staticmethod
    def _by_pattern(src_mentions: list[Mention], st: _Found) -> None:
        """Dates and numbers that change form, back-aligned by value (the target's dates and numbers found once,
        by value, not once per mention)."""
        tgt = st.tgt
        dates: dict | None = None
        numbers: dict | None = None
        for k, m in enumerate(src_mentions):
            if k in st.matched:
                continue
            if m.category == "DATE":
                val = date_value(m.text, english=False)
                if not val:
                    continue
                if dates is None:
                    dates = defaultdict(list)
                    for h in EN_DATE.finditer(tgt):
                        dates[date_value(h.group(), english=True)].append(h.span())
                spans = dates.get(val, ())
            elif m.category in ("NAMEID", "ADDRESS") and any(c.isdigit() for c in m.text):
                if numbers is None:
                    numbers = defaultdict(list)
                    for h in NUMBER_LIKE.finditer(tgt):
                        numbers[digits(h.group())].append(h.span())
                spans = numbers.get(digits(m.text), ())
            else:
                continue
            for hs, he in spans:
                if st.free(hs, he):
                    st.add(m, hs, he, "pattern")
                    st.matched.add(k)
                    break

    def _by_alignment(self, src_mentions: list[Mention], src_anon_tokens: list[tuple[int, int]],
                      src_anon_mentions: list[Mention], links: list[tuple[int, int]], st: _Found) -> None:
        """The target words aligned to each mention still unmatched, grown to the whole name."""
        tgt = st.tgt
        tgt_tokens = tokenize(tgt)
        src_tok_of = _tokens_of(src_anon_tokens, src_anon_mentions)
        for k, m in enumerate(src_mentions):
            if k in st.matched or k >= len(src_anon_mentions):
                continue
            stoks = set(src_tok_of.get(k, []))
            tidx = sorted({j for i, j in links if i in stoks and j < len(tgt_tokens)})
            tidx = [j for j in tidx if st.free(*tgt_tokens[j]) and not _is_punct(tgt, tgt_tokens[j])]
            if not tidx:
                continue
            if ACRONYM.fullmatch(m.text) and m.category == "ORGANIZATION":
                # an acronym stands for an acronym: its aligned upper-case token, not the words around it
                # ("Acordo EEE" -> "EEA Agreement": "EEA")
                caps = [j for j in tidx if ACRONYM.fullmatch(tgt[tgt_tokens[j][0]:tgt_tokens[j][1]])]
                if caps:
                    st.add(m, tgt_tokens[caps[0]][0], tgt_tokens[caps[0]][1], "alignment")
                    st.matched.add(k)
                    continue
            lo, hi = tidx[0], tidx[-1]
            if m.category in NAMED_CATEGORIES and not any(
                    CAPITALIZED.match(tgt[tgt_tokens[j][0]:tgt_tokens[j][1]]) for j in range(lo, hi + 1)):
                # a name aligned to lower-case words only ("ao <ORG>" -> "the"): the name is the nearest free
                # capitalized word, if one is close ("the documents to the Directorate-General ...")
                near = self._nearest_capitalized(tgt, tgt_tokens, lo, hi, st.free)
                if near is None:
                    continue
                lo = hi = near
            lo, hi = self._grow(tgt, tgt_tokens, lo, hi, st.free)
            s, e = tgt_tokens[lo][0], tgt_tokens[hi][1]
            if st.free(s, e):
                st.add(m, s, e, "alignment")
                st.matched.add(k)

    def _english(self, src_mentions: list[Mention], tgt: str, found: list[Mention], matched: set[int],
                 steps: dict[str, int], numbers: EntityNumbers, occupy) -> None:
        # the found mentions do not overlap: kept sorted by start, a hit's overlaps are found by bisection
        order = sorted(found, key=lambda m: m.start)
        starts = [m.start for m in order]

        def overlapping(s: int, e: int) -> tuple[int, int]:
            i = max(0, bisect_right(starts, s) - 1)
            while i < len(order) and order[i].end <= s:
                i += 1
            j = i
            while j < len(order) and order[j].start < e:
                j += 1
            return i, j

        def insert(m: Mention) -> None:  # (a widened span covers the pieces it replaces: marking it is enough)
            i = bisect_right(starts, m.start)
            starts.insert(i, m.start)
            order.insert(i, m)
            occupy(m)

        try:
            self._english_hits(src_mentions, tgt, order, starts, overlapping, insert, matched, steps, numbers)
        finally:
            found[:] = order

    def _english_hits(self, src_mentions, tgt, order, starts, overlapping, insert, matched, steps,
                      numbers: EntityNumbers) -> None:
        index: dict[tuple, list[int]] | None = None  # the source mentions by date, digits and rare word
        for h in self.english.find(tgt):
            i, j = overlapping(h.start, h.end)
            over = order[i:j]
            if over:
                one = len({m.entity for m in over}) == 1
                inside = all(h.start <= m.start and m.end <= h.end for m in over)
                same = all(m.category == h.category for m in over)
                # an English address around pieces the steps took for names ("14 <P>, <P>, Oxford <ADDRESS>")
                address = h.category == "ADDRESS" and inside and any(m.category == "ADDRESS" for m in over)
                # a company whose first words the steps took for a person ("<P> – MOBILIÁRIO E <ORG>, LDA.")
                company = h.category == "ORGANIZATION" and inside and any(m.category == h.category for m in over) \
                    and _visible_between(tgt, over)
                if same and (one or inside and _visible_between(tgt, over)) or address or company:
                    # the whole name, the whole address: one entity's pieces, or the pieces of what the hit
                    # shows is one name ("X – TRANSPORTES E Y, S.A.": the words between would show)
                    s, e = min([h.start] + [m.start for m in over]), max([h.end] + [m.end for m in over])
                    keep = next(m for m in over if m.category == h.category)
                    if len(over) > 1 or (s, e) != (over[0].start, over[0].end):
                        del order[i:j], starts[i:j]
                        insert(_span(keep, tgt, s, e))
                        steps["english_widened"] = steps.get("english_widened", 0) + 1
                continue
            if index is None:
                index = self._counterpart_index(src_mentions)
            k = self._counterpart(h, src_mentions, tgt, matched, index)
            if k is None and h.rule == "en:address-level":
                continue  # a floor alone is no one's address
            if k is None and h.category == "DATE" and all(
                    m.category != "DATE" or i in matched for i, m in enumerate(src_mentions)):
                # the source side masks no date this one could stand for: it shows the date, as public text (an
                # act's date, a citation's); masking only its translation would hide nothing and part the sides
                steps["english_date_public"] = steps.get("english_date_public", 0) + 1
                continue
            if k is not None:
                src = src_mentions[k]
                insert(Mention(h.start, h.end, src.category, tgt[h.start:h.end], "transfer:english", src.rule,
                               src.subtype, entity=src.entity))
                matched.add(k)
                steps["english"] += 1
            else:
                insert(Mention(h.start, h.end, h.category, tgt[h.start:h.end], "transfer:target_only", h.rule,
                               entity=numbers.new()))
                steps["target_only"] += 1

    def _long_forms(self, src_mentions: list[Mention], tgt: str, found: list[Mention], steps: dict[str, int],
                    free, occupy) -> None:
        toks: list[tuple[int, int]] = []
        ends: list[int] = []
        forms: dict[int, set[str]] | None = None  # entity -> its folded source forms
        for m in list(found):
            if m.category != "ORGANIZATION" or not ACRONYM.fullmatch(m.text) or tgt[m.start - 1:m.start] != "(" \
                    or tgt[m.end:m.end + 1] != ")":
                continue
            if forms is None:
                forms = defaultdict(set)
                for x in src_mentions:
                    forms[x.entity].add(fold(x.text))
            if not forms.get(m.entity, set()) - {fold(m.text)}:
                continue
            if not toks:
                toks = tokenize(tgt)
                ends = [b for _, b in toks]
            j = bisect_right(ends, m.start - 1) - 1  # the last token ending before the bracket
            if j < 0:
                continue
            a, b = toks[j]
            if b != len(tgt[:m.start - 1].rstrip()) or not free(a, b) or not CAPITALIZED.match(tgt[a:b]):
                continue
            lo, hi = self._grow(tgt, toks, j, j, free)
            if not _initials_fit(m.text, tgt[toks[lo][0]:toks[hi][1]]):
                continue
            found.append(Mention(toks[lo][0], toks[hi][1], m.category, tgt[toks[lo][0]:toks[hi][1]], "transfer:alias",
                                 m.rule, m.subtype, entity=m.entity))
            occupy(found[-1])
            steps["alias"] = steps.get("alias", 0) + 1

    def _counterpart(self, h, src_mentions: list[Mention], tgt: str, matched: set[int],
                     index: dict[tuple, list[int]]) -> int | None:
        """The source mention an English hit stands for: the same date, the same digits, or (names, addresses)
        a shared rare word; an untransferred one first, else the first. ``index`` (``_counterpart_index``) lists
        the source mentions by those keys, so a hit looks up its candidates instead of reading every mention."""
        text = tgt[h.start:h.end]
        if h.category == "DATE":
            ks = index.get(("DATE", h.value), []) if h.value is not None else []
        elif h.category == "NAMEID":
            ks = index.get(("NAMEID", digits(text)), [])
        else:
            words = {fold(w) for w in GUARD_WORD.findall(text) if len(w) >= 3}
            ks = sorted({k for w in words if w not in self.common or w in self.names
                         for k in index.get((h.category, w), [])})
        return next((k for k in ks if k not in matched), ks[0] if ks else None)

    def _counterpart_index(self, src_mentions: list[Mention]) -> dict[tuple, list[int]]:
        index: dict[tuple, list[int]] = defaultdict(list)
        for k, m in enumerate(src_mentions):
            if m.category == "DATE":
                keys = [("DATE", date_value(m.text, english=False))]
            elif m.category == "NAMEID":
                keys = [("NAMEID", digits(m.text))]
            else:
                keys = [(m.category, w) for w in {fold(w) for w in GUARD_WORD.findall(m.text) if len(w) >= 3}]
            for key in keys:
                index[key].append(k)
        return index

    def _tidy(self, tgt: str, result: TransferResult) -> None:
        """Absorb a legal-form tail into an organisation and join pieces of one entity.

        The steps and the guard can leave an entity in pieces ("<N8> Pescas, <N8>, Lda."): mentions of the
        same entity separated only by capitalized words, joiners and punctuation become one mention.
        """
        ms = result.mentions
        for k, m in enumerate(ms):
            if m.category == "ORGANIZATION" and self.legal_tail is not None:
                t = self.legal_tail.match(tgt, m.end)
                nxt = ms[k + 1].start if k + 1 < len(ms) else len(tgt)
                if t and t.end() <= nxt:
                    ms[k] = m = _span(m, tgt, m.start, t.end())
        merged: list[Mention] = []
        for m in ms:
            if merged and merged[-1].entity == m.entity and merged[-1].category == m.category \
                    and MERGEABLE_GAP.fullmatch(tgt, merged[-1].end, m.start):
                merged[-1] = _span(merged[-1], tgt, merged[-1].start, max(m.end, merged[-1].end))
            else:
                merged.append(m)
        result.mentions = merged

    @staticmethod
    def _nearest_capitalized(tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, free,
                             window: int = ALIGNMENT_WINDOW) -> int | None:
        """The free capitalized word nearest to tokens lo..hi within ``window`` tokens (right first on a tie),
        not a title and not the first word of the segment."""
        for d in range(1, window + 1):
            for j in (hi + d, lo - d):
                if 0 < j < len(toks) and free(*toks[j]) and CAPITALIZED.match(tgt[toks[j][0]:toks[j][1]]) \
                        and tgt[toks[j][0]:toks[j][1]].rstrip(".").lower() not in EN_TITLES:
                    return j
        return None

    def _grow(self, tgt: str, toks: list[tuple[int, int]], lo: int, hi: int, free) -> tuple[int, int]:
        """Close gaps and extend over adjacent capitalized words (and joiners between them)."""
        def cap(j: int) -> bool:
            return bool(CAPITALIZED.match(tgt[toks[j][0]:toks[j][1]]))

        def word(j: int) -> str:
            return tgt[toks[j][0]:toks[j][1]].lower()

        def ok(j: int) -> bool:
            return 0 <= j < len(toks) and free(*toks[j]) and not _is_punct(tgt, toks[j])

        while True:  # left: capitalized words, or up to two joiners after one ("Directorate-General for the")
            if ok(lo - 1) and cap(lo - 1) and word(lo - 1) != "the":
                lo -= 1
                continue
            k = lo - 1
            while k >= 0 and lo - k <= 2 and ok(k) and word(k) in JOINERS:
                k -= 1
            if k < lo - 1 and ok(k) and cap(k) and word(k) != "the":
                lo = k
            else:
                break
        while True:  # right: capitalized words, or joiners followed by one ("for the Treasury")
            if ok(hi + 1) and cap(hi + 1):
                hi += 1
                continue
            k = hi + 1
            while k < len(toks) and k - hi <= 2 and ok(k) and word(k) in JOINERS:
                k += 1
            if k > hi + 1 and ok(k) and cap(k):
                hi = k
            else:
                break
        return lo, hi

    def _guard(self, src_mentions: list[Mention], tgt: str, tol: TolerantText, result: TransferResult) -> None:
        """Mask any leftover original string or name part in the target with its mention's placeholder."""
        forms: dict[str, Mention] = {}
        for m in src_mentions:
            key = fold(m.text).strip()
            if len(key) >= 2:
                forms.setdefault(key, m)
            if m.category in ("PERSON", "ORGANIZATION", "ADDRESS"):
                for w in GUARD_WORD.findall(m.text):
                    f = fold(w)
                    if len(f) >= 3 and (f not in self.common or f in self.names) and f not in self.places:
                        forms.setdefault(f, m)
        occupied = bytearray(len(tgt) + 1)
        for x in result.mentions:
            occupied[x.start:x.end] = b"\x01" * (x.end - x.start)
        for key, m in sorted(forms.items(), key=lambda kv: -len(kv[0])):
            tf = self._form(key)
            if tf is None:
                continue
            for s, e in tol.find(tf):
                if occupied.find(1, s, e) < 0:
                    result.mentions.append(Mention(s, e, m.category, tgt[s:e], "guard", "leak-guard", m.subtype,
                                                   entity=m.entity))
                    occupied[s:e] = b"\x01" * (e - s)
                    result.guard_masks += 1
        result.mentions.sort(key=lambda x: x.start)


def _tokens_within(tokens: list[tuple[int, int]], start: int, end: int) -> list[int]:
    """Indexes of the tokens (in text order, not overlapping) that overlap [start, end), found by bisection."""
    j = max(0, bisect_right(tokens, (start, float("inf"))) - 1)
    out = []
    while j < len(tokens) and tokens[j][0] < end:
        if tokens[j][1] > start:
            out.append(j)
        j += 1
    return out


def _initials_fit(acronym: str, long: str) -> bool:
    """Whether an acronym can stand for a long form: two thirds of its letters or more are initials of the long
    form's content words, in any order (IPQ for "Portuguese Institute for Quality"; not EEC for "Regulation")."""
    initials = {w[0].lower() for w in GUARD_WORD.findall(long) if w.lower() not in JOINERS}
    letters = {c.lower() for c in acronym if c.isalpha()}
    return len(initials) >= 2 and bool(letters) and len(letters & initials) * 3 >= 2 * len(letters)


def _visible_between(text: str, ms: list[Mention]) -> bool:
    """Whether a word other than a joiner shows between consecutive mentions (sorted): "X – TRANSPORTES E Y"
    is one name in pieces, "Filipa Nogueira and Brightwell Logistics, Ltd" two names."""
    return any(any(w.lower() not in JOINERS for w in GUARD_WORD.findall(text[a.end:b.start]))
               for a, b in zip(ms, ms[1:], strict=False))


def _span(m: Mention, text: str, start: int, end: int) -> Mention:
    return Mention(start, end, m.category, text[start:end], m.recognizer, m.rule, m.subtype, entity=m.entity)


def _cores(text: str) -> list[str]:
    """The names inside an organisation mention, after each preposition, longest first.

    ``Conselho de Administração da Marés Pescas, Lda.`` -> ``Administração da Marés Pescas, Lda.``,
    ``Marés Pescas, Lda.``; a core must start with a capital and have two letters or more.
    """
    words = list(NON_SPACE.finditer(text))
    out = []
    for k, w in enumerate(words[:-1]):
        if w.group().lower() in PREPOSITIONS:
            core = text[words[k + 1].start():]
            if CAPITALIZED.match(core) and sum(c.isalpha() for c in core) >= 2:
                out.append(core)
    return out


def _is_punct(text: str, span: tuple[int, int]) -> bool:
    return not any(c.isalnum() for c in text[span[0]:span[1]])


def map_links(links: list[tuple[int, int]], old_tokens: list[tuple[int, int]], new_text: str,
              replacements: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Target-side links over the original tokens -> links over the anonymized tokens."""
    new_tokens = tokenize(new_text)
    if not replacements and new_tokens == old_tokens:  # nothing replaced (most targets): token k is token k
        n = len(old_tokens)
        return sorted({(i, j) for i, j in links if j < n})
    starts = {s: k for k, (s, _) in enumerate(new_tokens)}
    start_list = [s for s, _ in new_tokens]
    ends: dict[int, int] = {}
    for k, (_, e) in enumerate(new_tokens):
        ends.setdefault(e, k)
    mapping: dict[int, int] = {}
    for k, ns in enumerate(remap_offsets((s for s, _ in old_tokens), replacements)):
        if ns in starts:
            mapping[k] = starts[ns]
            continue
        # inside a placeholder: the token that spans the new offset (found by bisection: tokens are in order)
        nk = bisect_right(start_list, ns) - 1
        if nk >= 0 and ns < new_tokens[nk][1]:
            mapping[k] = nk
        elif new_tokens and ns == new_tokens[-1][1]:
            mapping[k] = len(new_tokens) - 1
        elif ns in ends:  # the token moved to the end of a replacement: the token ending there
            mapping[k] = ends[ns]
    return sorted({(i, mapping[j]) for i, j in links if j in mapping})
