"""A long form before its bracketed acronym on the target side: "the Portuguese Institute for Quality (<N15>)" is
the acronym's entity, so the English name takes its number (one entity, one number, both sides)."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter

from ..corpora.model import Mention
from ..text import tokenize
from .edges import translates
from .names import ACRONYM, CAPITALIZED, GUARD_WORD, field_list_start, grow, initials_fit


def long_forms(src_mentions: list[Mention], tgt: str, found: list[Mention], matched: set[int], steps: Counter,
               free, occupy) -> None:
    """The capitalized words before a bracketed acronym are its long form when their initials fit (whether or
    not the source numbered its long form with it: "the European Cockpit Association (ECA)" translates a long
    form the acronym does not abbreviate in Portuguese), or when the acronym's entity has a long form on the
    source side that no step carried and two words or more of theirs, one a dictionary translation of one of its
    words (a Portuguese acronym after an English name: "the Insurance Information, Mediation and Arbitration
    Centre (CIMPAS)" for "o Centro de Informação, ... de Seguros (CIMPAS)"; not "Council Regulation (EEC)").
    ``found``, ``matched``, ``steps``: the pair's transfer so far (updated); ``free``/``occupy``: its spans."""
    toks: list[tuple[int, int]] = []
    ends: list[int] = []
    for m in list(found):
        if m.category != "ORGANIZATION" or not ACRONYM.fullmatch(m.text) or tgt[m.start - 1:m.start] != "(" \
                or tgt[m.end:m.end + 1] != ")":
            continue
        if not toks:
            toks = tokenize(tgt)
            ends = [b for _, b in toks]
        j = bisect_right(ends, m.start - 1) - 1  # the last token ending before the bracket
        if j < 0:
            continue
        a, b = toks[j]
        if b != len(tgt[:m.start - 1].rstrip()):
            continue
        if not free(a, b):
            renumber_long_form(m, b, found, steps)
            continue
        if not CAPITALIZED.match(tgt[a:b]):
            continue
        lo, hi = grow(tgt, toks, j, j, free)
        lo = field_list_start(tgt, toks, lo, free)
        long = tgt[toks[lo][0]:toks[hi][1]]
        named = [k for k, x in enumerate(src_mentions) if x.entity == m.entity and x.category == m.category
                 and not ACRONYM.fullmatch(x.text)]
        untransferred = [k for k in named if k not in matched]
        # the source's long form counts when no step carried it, or when a step matched it only by its entity's
        # acronym (its English words, right here, are still visible: "National Communications Authority (ANACOM)")
        sources = untransferred or [k for k in named if not _carried(found, m)]
        if not (initials_fit(m.text, long) or sources and translated(long, src_mentions[sources[0]].text)):
            continue
        found.append(Mention(toks[lo][0], toks[hi][1], m.category, long, "transfer:alias", m.rule, m.subtype,
                             entity=m.entity))
        occupy(found[-1])
        matched.update(untransferred)
        steps["alias"] += 1


def _carried(found: list[Mention], acronym: Mention) -> bool:
    """Whether a target mention other than the acronym's own (and not an acronym) carries its entity."""
    return any(x.entity == acronym.entity and x is not acronym and not ACRONYM.fullmatch(x.text) for x in found)


def translated(long: str, source: str) -> bool:
    """Whether an English name of two words or more translates a source name: one of its words is a dictionary
    translation of one of the source's (``Centre`` of ``Centro``, ``Authority`` of ``Autoridade``)."""
    words = GUARD_WORD.findall(long)
    return len(words) > 1 and any(translates(s, t) for s in GUARD_WORD.findall(source) for t in words)


def renumber_long_form(acronym: Mention, end: int, found: list[Mention], steps: Counter) -> None:
    """A long form the alignment numbered, right before a bracketed acronym found as written whose initials it
    fits, is that acronym's entity: one name, one number ("the <European Regions Airline Association> (<ERA>)",
    where the alignment crossed the lines of a list of bodies)."""
    if acronym.recognizer != "transfer:string":
        return
    for x in found:
        if x.end == end and x is not acronym and x.category == acronym.category and x.entity != acronym.entity \
                and x.recognizer == "transfer:alignment" and initials_fit(acronym.text, x.text):
            x.entity = acronym.entity
            steps["alias_number"] += 1
