"""One entity, one number, both sides: the last look at a pair's target mentions before it is replaced.

The target steps that act beyond one pair (the document's and the corpus's target forms, the source side's
corpus forms read on the target) mask a form wherever it shows. The source side decides per mention, by its
context: an act's date ("Regulamento (UE) 2017/363 da Comissão, de 1 de março de 2017") stays visible as
public text while the same date elsewhere is masked. A spread then masks "of <NAME6_DATE>" in English while
the Portuguese side of the same pair shows the date: nothing is hidden (the source shows it) and the two sides
part. So a target DATE mention whose entity the pair's source side does not carry, and whose value the source
text shows unmasked, is dropped: the English date follows the Portuguese side's decision.

The same spreads read Portuguese forms on English text: a surname "Code" of the Portuguese corpus masks the
English word in "a Code of Conduct", a heading "POWER OF ATTORNEY" masked in one document is masked in every
other. A spread (``consistency``) name mention whose entity the pair's source side does not carry and that
reads as English words, not a name (not ``align/target.plausible_name``: one frequent English word, a country,
lower-case words; or every content word a frequent English word: "Official Journal of the European Union"),
is dropped too.
"""

from __future__ import annotations

from ..anonymize.dictionary import english_zipf
from ..corpora.model import Mention
from ..text import fold_same_length
from .target import CONTENT_WORD, FORM_JOINERS, FREQUENT_EN_ZIPF, plausible_name
from .transfer import TransferResult
from .values import NUMERIC_DATE, PT_DATE, date_value

DateValue = tuple[int | None, int | None, int | None]


def visible_source_dates(src: str, src_mentions: list[Mention]) -> list[DateValue]:
    """The (day, month, year) of every date the source text shows outside its mentions, in words
    ("18 de fevereiro de 2019", "setembro de 2018") or in figures ("4.2.2009")."""
    folded = fold_same_length(src)
    spans = [(m.start, m.end) for m in src_mentions]
    out: list[DateValue] = []
    for pattern in (PT_DATE, NUMERIC_DATE):
        for h in pattern.finditer(folded):
            if any(a < h.end() and h.start() < b for a, b in spans):
                continue
            v = date_value(src[h.start():h.end()], english=False)
            if v is not None and v[1] is not None and 1 <= v[1] <= 12 and (v[0] is not None or v[2] is not None):
                out.append(v)  # a month name alone ("marco", "maio") is no date
    return out


def same_date(a: DateValue, b: DateValue) -> bool:
    """The same month, and the same day and year wherever both give one."""
    return a[1] == b[1] and all(x is None or y is None or x == y for x, y in ((a[0], b[0]), (a[2], b[2])))


def drop_dates_shown_in_source(src: str, src_mentions: list[Mention], tgt_mentions: list[Mention]
                               ) -> list[Mention]:
    """The target mentions without the dates the source side keeps visible in this pair (see the module's
    docstring). Cheap where nothing applies: the source is read only when a target DATE has no counterpart."""
    here = {m.entity for m in src_mentions}
    lone = [m for m in tgt_mentions if m.category == "DATE" and m.entity not in here]
    if not lone:
        return tgt_mentions
    shown = visible_source_dates(src, src_mentions)
    if not shown:
        return tgt_mentions
    drop = set()
    for m in lone:
        v = date_value(m.text, english=True)
        if v is not None and any(same_date(v, s) for s in shown):
            drop.add(id(m))
    return [m for m in tgt_mentions if id(m) not in drop] if drop else tgt_mentions


NAME_CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS")


def english_words(m: Mention) -> bool:
    """Whether a name mention reads as English words: not a plausible name, or every content word frequent."""
    if not plausible_name(m):
        return True
    content = [w for w in CONTENT_WORD.findall(m.text) if w.lower() not in FORM_JOINERS]
    return all(w[0].isalpha() and english_zipf(w.lower().strip(".'’-")) >= FREQUENT_EN_ZIPF for w in content)


def drop_spread_words(src_mentions: list[Mention], tgt_mentions: list[Mention]) -> list[Mention]:
    """The target mentions without the spread ones that are English words, not names, and whose entity is not
    on the pair's source side (see the module's docstring)."""
    here = {m.entity for m in src_mentions}
    return [m for m in tgt_mentions if m.recognizer != "consistency" or m.category not in NAME_CATEGORIES
            or m.entity in here or not english_words(m)]


def settle(src: str, src_mentions: list[Mention], tr: TransferResult) -> None:
    """Both rules on a pair's ``TransferResult``, what each unmasks counted as a step of report.json
    (``date_shown_in_source``, ``spread_word_dropped``)."""
    for step, kept in (("date_shown_in_source", lambda ms: drop_dates_shown_in_source(src, src_mentions, ms)),
                       ("spread_word_dropped", lambda ms: drop_spread_words(src_mentions, ms))):
        got = kept(tr.mentions)
        if len(got) != len(tr.mentions):
            tr.steps[step] = tr.steps.get(step, 0) + len(tr.mentions) - len(got)
            tr.mentions = got
