"""Anonymization operators: what a mention is replaced with, per category, chosen in the config.

* ``placeholder`` (default): ``<NAME3_PERSON>``, template configurable;
* ``pseudonym``: a consistent fake name per entity from Faker's locale lists, the
  gender following the original first name where the lexicon tells it;
* ``suppress``: ``(...)``;
* ``generalize``: a date becomes its year (other categories fall back to the placeholder);
* ``substitute``: digits become 9 and letters a (``aaaa@aaa.aa``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import regex

from ..corpora.model import Mention
from ..settings import AnonymizeSettings
from ..text import fold

YEAR = regex.compile(r"(?<!\d)(\d{4})(?!\d)|(?<![\d/.-])\d{1,2}[/.-]\d{1,2}[/.-](\d{2})(?!\d)")
LETTERS = regex.compile(r"\p{L}+")
OPERATORS = ("placeholder", "pseudonym", "suppress", "generalize", "substitute")


@lru_cache(maxsize=8)
def _faker(locale: str):
    from faker import Faker

    return Faker(locale)


@lru_cache(maxsize=8)
def _gendered_first_names(locale: str) -> tuple[frozenset[str], frozenset[str]]:
    import importlib

    prov = importlib.import_module(f"faker.providers.person.{locale}").Provider
    return (frozenset(fold(n) for n in getattr(prov, "first_names_female", ())),
            frozenset(fold(n) for n in getattr(prov, "first_names_male", ())))


def substitute(text: str) -> str:
    return "".join("9" if c.isdigit() else ("a" if c.isalpha() else c) for c in text)


class Operators:
    def __init__(self, cfg: AnonymizeSettings | dict) -> None:
        a = AnonymizeSettings.of(cfg)  # the anonymize section, typed or (until every caller is) its mapping
        self.by_category = a.operators
        self.template = a.placeholder
        self.locale = a.pseudonym_locale
        self.seed = a.seed
        for cat, op in self.by_category.items():
            if op not in OPERATORS:
                raise ValueError(f"anonymize.operators.{cat}: unknown operator {op!r} (known: {', '.join(OPERATORS)})")

    def operator(self, category: str) -> str:
        return self.by_category.get(category, self.by_category.get("default", "placeholder"))

    def placeholder(self, m: Mention) -> str:
        return self.template.format(n=m.entity, label=m.label, category=m.category, subtype=m.subtype)

    def render(self, m: Mention, scope_key: str = "") -> str:
        op = self.operator(m.category)
        if op == "suppress":
            return "(...)"
        if op == "substitute":
            return substitute(m.text)
        if op == "generalize" and m.category == "DATE":
            y = YEAR.search(m.text)
            if y:
                return y.group(1) or y.group(2)
        if op == "pseudonym":
            return self.pseudonym(m, scope_key)
        return self.placeholder(m)

    def pseudonym(self, m: Mention, scope_key: str) -> str:
        fake = _faker(self.locale)
        digest = hashlib.sha256(f"{self.seed}|{scope_key}|{m.category}|{m.entity}".encode()).digest()
        fake.seed_instance(int.from_bytes(digest[:8], "big"))
        if m.category == "PERSON":
            female, male = _gendered_first_names(self.locale)
            words = [fold(w) for w in LETTERS.findall(m.text)]
            if any(w in female for w in words[:2]) and not any(w in male for w in words[:1]):
                return f"{fake.first_name_female()} {fake.last_name()}"
            if any(w in male for w in words[:2]):
                return f"{fake.first_name_male()} {fake.last_name()}"
            return fake.name()
        if m.category == "ORGANIZATION":
            return fake.company()
        if m.category == "ADDRESS":
            return fake.street_address()
        if m.category == "DATE":
            return fake.date()
        return substitute(m.text)
