"""paranon's person policy applied to a gold that marks titles and roles as part of a person (HAREM's PESSOA).

HAREM's ``PESSOA`` spans hold the title or role before a name (``Professora X``, ``o Dr. X``, ``tio X``) and
roles alone (``o Presidente``); paranon keeps titles and roles visible and hides the name. ``name_start`` cuts
a span's words to the name: the leading words that are paranon's titles or +HUM nouns (``person.titles``,
``person.hum_nouns`` of ``anonymize/data/pt.yaml``) or are not capitalized are left out; a span with no
capitalized word left is a role alone (``None``: not a name). One rule for the tuning set
(``corpora/gold/general/build.py``) and the HAREM test collections (``corpora/harem.py``, ``names_only``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..yaml_files import read_yaml

RULES = Path(__file__).resolve().parent.parent / "anonymize" / "data" / "pt.yaml"


def fold_role(word: str) -> str:
    return word.lower().rstrip(".")


def roles_of(rules_path: Path = RULES) -> frozenset[str]:
    """paranon's titles and +HUM nouns, folded (``Dr.`` -> ``dr``)."""
    rules = read_yaml(rules_path, strings=True)  # (read as the engine reads it: every scalar a string)
    return frozenset(fold_role(t) for t in rules["person"]["titles"] + rules["person"]["hum_nouns"])


def name_start(words: Sequence[str], roles: frozenset[str] | set[str]) -> int | None:
    """Index of the first word of the name in a person span's words, or None when the span names no one (only
    titles, roles and words in lower case: ``o Presidente``)."""
    k = 0
    while k < len(words) and (fold_role(words[k]) in roles or not words[k][:1].isupper()):
        k += 1
    if k == len(words) or not any(w[:1].isupper() for w in words[k:]):
        return None
    return k
