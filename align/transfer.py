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
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

import regex

from ..anonymize.numbering import EntityNumbers
from ..corpora.model import Mention
from ..text import fold, fold_same_length, tokenize
from .english import DATE_LEAD
from .long_forms import long_forms
from .names import (
    ACRONYM,
    CAPITALIZED,
    GUARD_WORD,
    WORDS,
    MentionWords,
    cores,
    grow,
    is_punct,
    joined_by_preposition,
    name_edges,
    nearest_capitalized,
    own_words,
    run_between,
    span,
    tokens_within,
    visible_between,
)
from .tolerant import TolerantText, tolerant_form
from .translated_names import past_inner_prepositions
from .values import EN_DATE, NUMBER_LIKE, date_value, digits

NAMED_CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS")
POSSESSIVE = regex.compile(r"(?<=\p{L})['’]s$")  # an English possessive after a name grown over it
VALUE_CATEGORIES = ("NAMEID", "DATE")  # what an English address's widening never swallows
MIN_HELD = 5  # the fewest characters of a source identifier that an English identifier holding it must show
# what may lie between two pieces of one entity that are joined: punctuation, joiners, capitalized words
# (and between two pieces of one address, a slash or a bar: a street and its postcode's line, "Rua X, 5 / 1200-093")
ADDRESS_SEPARATOR = regex.compile(r"\s*[/|]\s*")
MERGEABLE_GAP = regex.compile(r"(?:[\s,.;:&'’\-]|\b(?:" + "|".join(
    sorted((regex.escape(w) for w in WORDS.joiners if w.isalpha()), key=lambda w: (-len(w), w))) +
    r")\b|\p{Lu}[\p{L}'’.-]*)*")


@dataclass
class TransferResult:
    mentions: list[Mention]
    guard_masks: int = 0
    untransferred: list[Mention] = field(default_factory=list)
    target_only: int = 0
    steps: Counter = field(default_factory=Counter)  # mentions by the step that found, added or dropped them


class _Found:
    """What one pair's transfer has found so far: the target mentions, the source mentions matched, the counts
    by step, and where the target is taken (``free`` in time of the span, not of the mentions found: a long
    entity-dense segment made it quadratic)."""

    def __init__(self, tgt: str) -> None:
        self.tgt = tgt
        self.tol = TolerantText(fold_same_length(tgt))
        self.found: list[Mention] = []
        self.matched: set[int] = set()
        self.steps = Counter({"string": 0, "pattern": 0, "alignment": 0, "english": 0, "target_only": 0})
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
                 names: set[str] | None = None, legal_tails: list[str] | None = None, english=None,
                 polities: set[str] | None = None) -> None:
        self.id_finder = id_finder
        self.english = english  # align.english.EnglishRecognizer: the second line on an English target
        tails = sorted({t.rstrip(".") for t in legal_tails or []}, key=len, reverse=True)
        self.legal_tail = regex.compile(r"\s*,?\s*(?:" + "|".join(regex.escape(t) for t in tails) +
                                        r")\.?(?![\p{L}\p{N}])") if tails else None
        # a tail written with its final dot ("Lda.", "C.R.L."): a mention that ends just before that dot takes it
        dotted = sorted({t.rstrip(".") for t in legal_tails or [] if t.endswith(".")}, key=len, reverse=True)
        self.dotted_tail = regex.compile(r"(?<![\p{L}])(?:" + "|".join(regex.escape(t) for t in dotted) + r")$") \
            if dotted else None
        self.names = names or set()
        self.common = common_words or set()
        self.places = places or set()
        self.polities = polities or set()  # (folded: "efta", "uniao europeia": a body's polity, not the body's name)
        self._forms: dict[str, tuple[str, frozenset[int]] | None] = {}
        self._entity_words = MentionWords(self.common, self.names, self.places)  # the words own_words widens over

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
        # acronym's number when its initials fit or the source side names that entity in another form too
        long_forms(src_mentions, tgt, st.found, st.matched, st.steps, st.free, st.occupy)
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
        result.mentions = own_words(tgt, result.mentions, self._entity_words(src_mentions), fold)
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
                    if form != m.text:  # the entity's other mention written so ("ANACOM") is carried by these hits
                        st.matched.update(j for j, x in enumerate(src_mentions)
                                          if x.entity == m.entity and j not in st.matched and fold(x.text) == fold(form))
                    break

    def _by_core(self, src_mentions: list[Mention], st: _Found) -> None:
        """An organisation whose head is translated ("Conselho de Administração da X, Lda." -> "Board of
        Directors of X, Lda."): its name after a preposition matched, then grown over the translated head."""
        tgt = st.tgt
        for k, m in enumerate(src_mentions):
            if k in st.matched or m.category != "ORGANIZATION":
                continue
            for core in cores(m.text):
                if fold(core).strip() in self.places or fold(core).strip() in self.polities:
                    continue  # "Órgão de Fiscalização da EFTA": not every "EFTA" of the target ("an EFTA State")
                tf = self._form(core)
                hits = [(a, b) for a, b in st.tol.find(tf) if st.free(a, b)] if tf else []
                if hits:
                    tgt_tokens = tokenize(tgt)
                    for ha, hb in hits:
                        idx = tokens_within(tgt_tokens, ha, hb)
                        lo, hi = grow(tgt, tgt_tokens, idx[0], idx[-1], st.free)
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
        linked: dict[int, list[int]] | None = None  # source token -> its target tokens (built once, if asked)
        for k, m in enumerate(src_mentions):
            if k in st.matched or k >= len(src_anon_mentions):
                continue
            if linked is None:
                linked = defaultdict(list)
                for i, j in links:
                    linked[i].append(j)
            tidx = sorted({j for i in src_tok_of.get(k, ()) for j in linked.get(i, ()) if j < len(tgt_tokens)})
            tidx = [j for j in tidx if st.free(*tgt_tokens[j]) and not is_punct(tgt, tgt_tokens[j])]
            if not tidx:
                # a name whose links are unusable: the capitalized words between its neighbours' translations
                got = run_between(tgt, tgt_tokens, src_tok_of[k][0], src_tok_of[k][-1], linked, st.free) \
                    if m.category in NAMED_CATEGORIES and src_tok_of.get(k) else None
                if got is not None:
                    st.add(m, tgt_tokens[got[0]][0], tgt_tokens[got[1]][1], "alignment")
                    st.matched.add(k)
                    st.steps["between_neighbours"] += 1
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
                near = nearest_capitalized(tgt, tgt_tokens, lo, hi, st.free)
                if near is None:
                    continue
                lo = hi = near
            lo, hi = grow(tgt, tgt_tokens, lo, hi, st.free)
            if m.category in ("PERSON", "ORGANIZATION"):
                lo, hi = name_edges(tgt, tgt_tokens, lo, hi, m.text, tidx)
            if m.category == "ORGANIZATION":
                hi = past_inner_prepositions(tgt, tgt_tokens, hi, m.text, st.free)
            s, e = tgt_tokens[lo][0], tgt_tokens[hi][1]
            if st.free(s, e):
                st.add(m, s, e, "alignment")
                st.matched.add(k)

    def _english(self, src_mentions: list[Mention], tgt: str, found: list[Mention], matched: set[int],
                 steps: Counter, numbers: EntityNumbers, occupy) -> None:
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
            if h.rule == "en:body" and len({m.entity for m in over}) != 1:
                continue  # a body's English name widens one entity's mention; it never adds or joins any
            if over:
                one = len({m.entity for m in over}) == 1
                inside = all(h.start <= m.start and m.end <= h.end for m in over)
                same = all(m.category == h.category for m in over)
                # an English address around pieces the steps took for names ("14 <P>, <P>, Oxford <ADDRESS>")
                # (never over an identifier or a date the steps found: "card no. <N31>, Rua ..." keeps its number)
                address = h.category == "ADDRESS" and inside and any(m.category == "ADDRESS" for m in over) \
                    and not any(m.category in VALUE_CATEGORIES for m in over)
                # a company whose first words the steps took for a person ("<P> – MOBILIÁRIO E <ORG>, LDA.")
                company = h.category == "ORGANIZATION" and inside and any(m.category == h.category for m in over) \
                    and (visible_between(tgt, over) or h.rule == "en:legal-tail" and joined_by_preposition(tgt, over))
                # a name with a legal tail the steps took for a person's ("<P> AG", "<P> & Sons Ltd")
                named = h.rule == "en:legal-tail" and one and inside and over[0].category == "PERSON"
                if same and (one or inside and visible_between(tgt, over)) or address or company or named:
                    # the whole name, the whole address: one entity's pieces, or the pieces of what the hit
                    # shows is one name ("X – TRANSPORTES E Y, S.A.": the words between would show)
                    s, e = min([h.start] + [m.start for m in over]), max([h.end] + [m.end for m in over])
                    while h.category == "DATE" and s < h.start and (lead := DATE_LEAD.match(tgt, s, h.start)):
                        s = lead.end()  # "On the <ninth day of ...>": the words before a date are outside it
                    keep = next((m for m in over if m.category == h.category), None) \
                        or replace(over[0], category=h.category)
                    if len(over) > 1 or (s, e) != (over[0].start, over[0].end):
                        del order[i:j], starts[i:j]
                        insert(span(keep, tgt, s, e))
                        steps["english_widened"] += 1
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
                steps["english_date_public"] += 1
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

    def _counterpart(self, h, src_mentions: list[Mention], tgt: str, matched: set[int],
                     index: dict[tuple, list[int]]) -> int | None:
        """The source mention an English hit stands for: the same date, the same digits, or (names, addresses)
        a shared rare word; an untransferred one first, else the first. ``index`` (``_counterpart_index``) lists
        the source mentions by those keys, so a hit looks up its candidates instead of reading every mention."""
        text = tgt[h.start:h.end]
        if h.category == "DATE":
            ks = index.get(("DATE", h.value), []) if h.value is not None else []
        elif h.category == "NAMEID":
            value = digits(text)
            # (or a source identifier the hit holds: the source's span left a letter out, "A<N8>" / "A0K2F7791")
            ks = index.get(("NAMEID", value)) or [k for k, m in enumerate(src_mentions) if m.category == "NAMEID"
                                                   and k not in matched and len(d := digits(m.text)) >= MIN_HELD
                                                   and d in value]
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
                    ms[k] = m = span(m, tgt, m.start, t.end())
                elif tgt[m.end:m.end + 1] == "." and self.dotted_tail is not None and self.dotted_tail.search(m.text):
                    ms[k] = m = span(m, tgt, m.start, m.end + 1)  # "... C.R.L." at a sentence's end: the tail's dot
            if m.category in ("PERSON", "ORGANIZATION") and m.recognizer != "transfer:string" \
                    and (p := POSSESSIVE.search(m.text)):
                ms[k] = m = span(m, tgt, m.start, m.start + p.start())  # "the Ministry of Justice's": the name only
        merged: list[Mention] = []
        for m in ms:
            if merged and merged[-1].entity == m.entity and merged[-1].category == m.category \
                    and (MERGEABLE_GAP.fullmatch(tgt, merged[-1].end, m.start)
                         or m.category == "ADDRESS" and ADDRESS_SEPARATOR.fullmatch(tgt, merged[-1].end, m.start)):
                merged[-1] = span(merged[-1], tgt, merged[-1].start, max(m.end, merged[-1].end))
            else:
                merged.append(m)
        result.mentions = merged

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


