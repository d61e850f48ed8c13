"""Corpus consistency on the source side, chunk by chunk: the corpus's entity forms (:class:`CorpusForms`)
masked in every source segment where the recognizers missed them, numbered within each scope like the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby
from typing import TYPE_CHECKING

from ..text import phrase_key
from .anonymized import Anonymized
from .consistency import CorpusForms, form_key
from .engine import apply_mentions
from .numbering import Constraints, EntityNumbers, company_short_names

PUBLIC_CATEGORIES = ("PUBLIC_ID", "LEGAL_REFERENCE")  # what the recognizers find to keep it visible
# a town kept public may still be the last line of an address the recognizers cut short ("3089 JK Rotterdam")
PLACE_RULES = ("public-text:town-of-country", "public-text:place-of-signature")
PUBLIC_MEMO = 20_000  # segments whose public mentions an anonymizer keeps (then it starts again)

if TYPE_CHECKING:
    from .engine import Anonymizer


def corpus_forms(anonymizer: Anonymizer, chunks_of_items: Iterable[list[Anonymized]]) -> CorpusForms:
    """The entity forms of the given chunks, scope by scope."""
    forms = CorpusForms(anonymizer._propagation_forms)
    for items in chunks_of_items:
        for _, group in groupby(items, key=lambda it: anonymizer.scope_key(it.pair)):
            forms.add_document([m for it in group for m in it.mentions])
    return forms


def corpus_numbers(chunks_of_items: Iterable[list[Anonymized]]) -> EntityNumbers:
    """For ``corpus`` scope: the corpus-wide numbers of forms, and the next free number."""
    numbers = EntityNumbers()
    for items in chunks_of_items:
        for it in items:
            numbers.next = max(numbers.next, it.next_free)
            numbers.known.update((form_key(m.text), m.entity) for m in it.mentions)
    return numbers


def make_consistent(items: list[Anonymized], forms: CorpusForms, anonymizer: Anonymizer,
                    corpus: EntityNumbers | None) -> tuple[list[Anonymized], int]:
    """Items with the corpus's entity forms masked wherever the recognizers missed them, and how many
    mentions that added (numbered within each scope like the others: ``corpus``, the corpus-wide numbers for
    ``corpus`` scope, else each scope's own from its mentions)."""
    new_items: list[Anonymized] = []
    added = 0
    for scope, group in groupby(items, key=lambda it: anonymizer.scope_key(it.pair)):
        group = list(group)
        if corpus is not None:
            numbers = corpus
        else:
            known = {form_key(m.text): m.entity for it in group for m in it.mentions}
            numbers = EntityNumbers.above(known.values(), max([it.next_free for it in group] + [1]), known)
            _known_short_names(numbers, group)
        _known_groups(numbers, group, anonymizer.numberer.constraints)
        out = []
        for it in group:
            p, ms, rep = it.pair, it.mentions, it.replaced
            extra = forms.mentions(p.src, ms, numbers)
            extra = _outside_public(anonymizer, p.src, extra) if extra else extra
            if extra:
                ms = sorted(ms + extra, key=lambda m: m.start)
                rep = apply_mentions(p.src, ms, anonymizer.ops, scope)
                added += len(extra)
            out.append((p, ms, rep))
        new_items += [Anonymized(p, ms, rep, numbers.next) for p, ms, rep in out]
    return new_items, added


def _outside_public(anonymizer: Anonymizer, text: str, extra: list) -> list:
    """The spread mentions outside the spans the recognizers keep public in this segment: a form masked in one
    document (``ESMA`` in running text) stays visible where it is part of a citation, a standard's designation or
    an agreement's name here (``Regulamento ... que cria a ESMA (JO L ...)``). Only segments a form spread to are
    read again."""
    public = public_mentions(anonymizer, text)
    return [m for m in extra if not any(x.start < m.end and m.start < x.end for x in public)]


def public_mentions(anonymizer: Anonymizer, text: str) -> list:
    """The mentions the recognizers keep public in a segment (citations, designations, agreements' names), but a
    town, which may be an address's last line. Memoized per anonymizer (a recognition of the text alone, the
    same each time; the list is read, never changed)."""
    memo = anonymizer.public_memo
    found = memo.get(text)
    if found is None:
        if len(memo) >= PUBLIC_MEMO:
            memo.clear()
        found = memo[text] = [m for m in anonymizer.recognize(text)
                              if m.category in PUBLIC_CATEGORIES and m.rule not in PLACE_RULES]
    return found


def adopt_public(anonymizer: Anonymizer, found: dict[str, list]) -> None:
    """Public mentions another process found (``public_mentions``' memo entries), taken into this anonymizer's
    memo: the consistency stage's workers send theirs back, so that the transfer stage's workers, forked after,
    do not recognize those segments again."""
    memo = anonymizer.public_memo
    for text, mentions in found.items():
        if len(memo) >= PUBLIC_MEMO:
            return
        memo.setdefault(text, mentions)


def _known_groups(numbers: EntityNumbers, group: list[Anonymized], constraints: Constraints) -> None:
    """A form of a ``same_entity`` group masked here takes the number its group has in the scope."""
    if not constraints.group:
        return
    for it in group:
        for m in it.mentions:
            g = constraints.group_of(m.text)
            for f in constraints.members.get(g, ()) if g is not None else ():
                numbers.known.setdefault(form_key(f), m.entity)


def _known_short_names(numbers: EntityNumbers, group: list[Anonymized]) -> None:
    """A company's short name found here (``NORVINHA`` for ``NORVINHA – VINHOS DO NORTE, S.A.``) takes the
    company's number in the scope when it names no other company there."""
    named: dict[str, set[int]] = {}
    for it in group:
        for m in it.mentions:
            if m.category == "ORGANIZATION" and m.subtype == "COMPANY" and m.entity is not None:
                for name in company_short_names(phrase_key(m.text)):
                    named.setdefault(form_key(name), set()).add(m.entity)
    for key, entities in named.items():
        if len(entities) == 1:
            numbers.known.setdefault(key, next(iter(entities)))
