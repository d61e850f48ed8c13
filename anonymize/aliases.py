"""Aliases a text defines for an entity: ``Agência de Registos do Norte (ARN)``, ``Tintas Belmiro, Lda. (doravante
"TB")``, ``Quitéria Sá (a "Vendedora")`` is no alias (an ordinary word), ``(adiante designada por "Belmiro")`` is, and so
are a name's own first words (``Farol Digital, Lda. («Farol»)``) however ordinary.

An alias in brackets right after a person or an organisation belongs to it: it gets the same category and
number and is masked wherever the document uses it. The alias must be a name: an acronym (``ARN``, ``SBDI-2``)
or capitalized words that are not all ordinary words (a defined role such as "Vendedora" or "Contrato" is
public text).
"""

from __future__ import annotations

import regex

from ..corpora.model import Mention
from ..text import fold

# "(ARN)", "(doravante “TB”)", "(adiante designada por «Belmiro»)", "(a seguir denominada "a Belmiro")", a name in
# Chinese characters ("(陈晓宇)")
DEFINER = (r"(?:doravante|adiante|abreviadamente|a seguir|de ora em diante|hereinafter)\s*,?\s*"
           r"(?:(?:designad[ao]s?|denominad[ao]s?|referid[ao]s?|abreviad[ao]s?|called|referred to as)\s+)?"
           r"(?:(?:por|como|apenas|simplesmente|as)\s+)?")
ALIAS = r"\p{Lu}[\p{L}\d&'’.-]*(?:\s+(?:d[aoe]s?\s+|[&e]\s+)?\p{Lu}[\p{L}\d&'’.-]*){0,3}|\p{Han}{2,20}"
# (or after a comma with no bracket, the alias then in quotes: ", adiante designada por «Quintas do Sado»")
DEFINITION = regex.compile(
    rf"\s*,?\s*(?:\(\s*(?P<defined>{DEFINER})?(?:(?:a|o|as|os|the)\s+)?[\"“«']?(?P<alias>{ALIAS})[\"”»']?\s*\)"
    rf"|(?P<defined>{DEFINER})(?:(?:a|o|as|os|the)\s+)?[\"“«](?P<alias>{ALIAS})[\"”»])")
# the same definition later in the clause (no semicolon, bracket or sentence end before it), how far it is looked for
LATER_DEFINITION = regex.compile(rf"(?<=,\s*)(?P<defined>{DEFINER})(?:(?:a|o|as|os|the)\s+)?[\"“«](?P<alias>{ALIAS})[\"”»]")
CLAUSE = 200
ACRONYM = regex.compile(r"^\p{Lu}[\p{Lu}\d&.-]{1,9}$")


def translated_initials(letters: list[str], words: list[str]) -> bool:
    """Whether three letters or more are each the initial of another content word of the name, in any order: the
    acronym of the name's translation, whose words come in another order (``ETF`` of Federação Europeia dos
    Trabalhadores dos Transportes, the European Transport Workers' Federation)."""
    initials = [w[0] for w in words if len(w) > 3]
    if len(letters) < 3 or len(letters) > len(initials):
        return False
    for c in letters:
        if c not in initials:
            return False
        initials.remove(c)
    return True


def abbreviates(acronym: str, name: str) -> bool:
    """Whether an acronym's letters are taken from the name in order, the first from a word's start
    (``ARN`` of Agência de Registos do Norte, ``SBDI`` of Subseção de Dissídios Individuais; not ``SP`` of
    Tribunal de Justiça)."""
    letters = [c for c in fold(acronym) if c.isalpha()]
    words = fold(name).split()
    if translated_initials(letters, words):
        return True
    if not letters or not any(w.startswith(letters[0]) for w in words):
        return False
    text = "".join(words)
    at = text.find(letters[0])
    for c in letters[1:]:
        at = text.find(c, at + 1)
        if at < 0:
            return False
    return True


def _own_words(alias: str, name: str) -> bool:
    """Whether the alias is the name's own first words, or its words all words of the name (``Quintas do Sado``
    of Quintas & Vinhas do Sado, Lda.)."""
    a, n = fold(alias), fold(name)
    return n.startswith(a + " ") or " " in a and set(a.split()) <= set(regex.findall(r"[\w&]+", n))


def defined_aliases(text: str, mentions: list[Mention], is_ordinary) -> list[tuple[int, int, Mention]]:
    """(start, end, entity mention) of each alias defined in brackets right after a PERSON or ORGANIZATION
    mention of ``text``, or later in its clause when the alias is the name's own words (``Tecnimar, S.A., com sede
    em Aveiro, doravante «Tecnimar»``). ``is_ordinary(word)`` tells an ordinary word (a defined role) from a name."""
    out = []
    for m in mentions:
        if m.category not in ("PERSON", "ORGANIZATION"):
            continue
        d = DEFINITION.match(text, m.end)
        if not d:
            d = LATER_DEFINITION.search(text, m.end, min(len(text), m.end + CLAUSE))
            if not d or ";" in text[m.end:d.start()] or not _own_words(d.group("alias").rstrip("."), m.text):
                continue
        alias = d.group("alias").rstrip(".")
        s = d.start("alias")
        acronym = bool(ACRONYM.match(alias))
        # (a name's own first words are its short form even when they are ordinary words: «Bússola» for
        # Bússola Digital, Lda.)
        own = _own_words(alias, m.text)
        if alias == m.text or not (acronym or own or not all(is_ordinary(w) for w in regex.findall(r"\p{L}+", alias))):
            continue
        if acronym and not d.group("defined") and not abbreviates(alias, m.text):
            continue  # "Tribunal de Justiça (SP)": a state, not the court's acronym
        out.append((s, s + len(alias), m))
    return out
