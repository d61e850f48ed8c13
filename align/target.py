"""Which target-side forms may spread, and what the allow list keeps visible on the target side.

Target consistency masks a form the transfer found in one pair wherever else it appears (in the document,
then in the corpus). One alignment error spread that way masks a common word everywhere ("Agreement",
"Union", "Council"), so a form has to earn its spread:

* it is a plausible name: its content words are capitalized, it is not one frequent English word on its
  own (wordfreq) and not a country's English name (places are public);
* and it was found by a string or pattern step (the original itself, a date, an identifier), or aligned
  from the same source entity in at least two pairs (``MIN_ALIGNED_PAIRS``).

The allow list acts on both sides: a target mention whose text is an allowed form is dropped, and so is one
that lies wholly on the words aligned to an allowed source form (``Parlamento Europeu`` allowed keeps
``European Parliament`` visible in its pair).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

import regex

from ..anonymize.consistency import CAPITALIZED_CATEGORIES, identifier_form
from ..anonymize.dictionary import english_zipf
from ..corpora.model import Mention
from ..text import fold, fold_same_length, phrase_key

MIN_ALIGNED_PAIRS = 2  # pairs in which alignment alone must find a form before it spreads
FREQUENT_EN_ZIPF = 4.0  # a single word this frequent in English (wordfreq Zipf) is a word, not a name
CONTENT_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}'’.-]*")
FORM_JOINERS = {"of", "and", "for", "the", "on", "in", "to", "de", "da", "do", "das", "dos", "e", "&", "a", "an"}
EARNED_RECOGNIZERS = ("transfer:string", "transfer:pattern", "transfer:english", "transfer:target_only", "guard")


@lru_cache(maxsize=1)
def english_country_names() -> frozenset[str]:
    """Countries' English names, folded (pycountry): ``liechtenstein``, ``united kingdom`` ..."""
    import pycountry

    out = set()
    for c in pycountry.countries:
        for attr in ("name", "common_name", "official_name"):
            name = getattr(c, attr, None)
            if name:
                out.add(" ".join(fold(name).split()))
    return frozenset(out)


def warm_target_lexicons() -> None:
    """Load wordfreq's English list and the country names now (in a parent process, before workers fork)."""
    english_zipf("the")
    english_country_names()


def plausible_name(m: Mention) -> bool:
    """Whether a person, organisation or address mention reads as a name in English: every content word
    capitalized (or a number), not one frequent English word alone, not a country."""
    words = CONTENT_WORD.findall(m.text)
    content = [w for w in words if w.lower() not in FORM_JOINERS]
    if not content or not all(w[0].isupper() or w[0].isdigit() for w in content):
        return False
    key = " ".join(fold(w) for w in words)
    if key in english_country_names():
        return False
    if len(content) == 1 and english_zipf(fold(content[0]).strip(".'’-")) >= FREQUENT_EN_ZIPF:
        return False
    return True


def earned_by_step(m: Mention) -> bool:
    """Found by a step that matched the original or a pattern, not by alignment alone."""
    return m.recognizer.startswith(EARNED_RECOGNIZERS)


def spreadable(m: Mention, key: str) -> bool:
    """A target mention's form may enter target consistency by its kind (evidence is counted apart):
    a plausible name, a date, or an identifier long enough."""
    if len(key) < 3 or m.recognizer == "consistency":
        return False
    if m.category in CAPITALIZED_CATEGORIES:
        return plausible_name(m)
    if m.category == "NAMEID":
        return identifier_form(m.text)
    return m.category == "DATE"


def allow_gate(allow: set[str]) -> re.Pattern:
    """One search for every allowed form ``allowed_source_tokens`` looks for (two characters or more): most
    segments hold none, and one search turns them away instead of a search per form."""
    forms = sorted((f for f in allow if len(f) >= 2), key=len, reverse=True)
    return re.compile("|".join(map(re.escape, forms)) if forms else "(?!)")


def allowed_source_tokens(src: str, src_tokens: list[tuple[int, int]], allow: set[str],
                          gate: re.Pattern | None = None) -> set[int]:
    """Indices of the source tokens that are part of an allowed form (whole words, case/accent-insensitive);
    ``gate``: ``allow_gate(allow)``, made once by the caller."""
    if not allow:
        return set()
    folded = fold_same_length(src)
    out: set[int] = set()
    if gate is not None and not gate.search(folded):
        return out
    for form in allow:
        if len(form) < 2:
            continue
        i = folded.find(form)
        while i >= 0:
            e = i + len(form)
            if (i == 0 or not folded[i - 1].isalnum()) and (e == len(folded) or not folded[e].isalnum()):
                k = max(0, bisect_right(src_tokens, (i, float("inf"))) - 1)  # tokens in text order: bisection,
                while k < len(src_tokens) and src_tokens[k][0] < e:      # not a scan of every token per hit
                    if src_tokens[k][1] > i:
                        out.add(k)
                    k += 1
            i = folded.find(form, i + 1)
    return out


def drop_allowed(mentions: list[Mention], tgt: str, tgt_tokens: list[tuple[int, int]], allow: set[str],
                 protected: set[int], src_forms: dict[int, set[str]] | None = None) -> list[Mention]:
    """The target mentions without those the allow list keeps visible: an allowed form itself (unless its
    entity is masked on the pair's source side in a longer form that holds an allowed form: ``Parlamento
    Europeu e do Conselho``; an acronym of it masked there keeps nothing masked), or a mention whose words all
    lie on target tokens aligned to an allowed source form (``protected``). ``src_forms``: each source entity's
    forms in the pair, as ``phrase_key``."""
    out = []
    for m in mentions:
        if phrase_key(m.text) in allow and not any(_holds_allowed(f, allow) for f in (src_forms or {}).get(m.entity, ())):
            continue
        if protected and m.category in CAPITALIZED_CATEGORIES:
            words = [k for k, (a, b) in enumerate(tgt_tokens) if a < m.end and m.start < b
                     and any(c.isalnum() for c in tgt[a:b]) and tgt[a:b].lower() not in FORM_JOINERS]
            if words and all(k in protected for k in words):
                continue
        out.append(m)
    return out


def _holds_allowed(form: str, allow: set[str]) -> bool:
    """Whether ``form`` (a phrase key) is longer than an allowed form it holds as whole words."""
    padded = f" {form} "
    return any(len(a) < len(form) and f" {a} " in padded for a in allow)


def shown_in_source(src: str, src_mentions: list[Mention], text: str, public: list[Mention] | None = None) -> bool:
    """Whether ``text`` (a spread target form) stands visible in the pair's source, outside every source mention,
    as whole words (and, given the source's ``public`` mentions, inside one of them): the source side kept that name
    public there (an acronym in a citation, a public body in an act's title), so the target keeps it visible too
    (one entity, the same decision on both sides). A name the source's recognizers merely missed is no decision."""
    if len(text) < 2:
        return False
    i = src.find(text)
    while i >= 0:
        e = i + len(text)
        if (i == 0 or not src[i - 1].isalnum()) and (e == len(src) or not src[e].isalnum()) \
                and not any(m.start < e and i < m.end for m in src_mentions) \
                and (public is None or any(x.start <= i and e <= x.end for x in public)):
            return True
        i = src.find(text, i + 1)
    return False


def keep_source_decision(src: str, src_mentions: list[Mention], extra: list[Mention], public) -> list[Mention]:
    """The spread target mentions without those whose text the pair's source keeps public (``public(src)``: the
    source's public mentions, read only when a spread form stands visible there)."""
    if not any(shown_in_source(src, src_mentions, m.text) for m in extra):
        return extra
    spans = public(src)
    return [m for m in extra if not shown_in_source(src, src_mentions, m.text, spans)]
