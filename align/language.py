"""The words the transfer to the target side reads, per language (``transfer:`` at the end of
``anonymize/data/<lang>.yaml``), loaded once per language pair into one frozen object."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..yaml_files import read_yaml

DATA = Path(__file__).resolve().parent.parent / "anonymize" / "data"


def _section(lang: str) -> dict:
    return read_yaml(DATA / f"{lang}.yaml")["transfer"]


@dataclass(frozen=True)
class TransferWords:
    """Month names (folded, January first) of each side; the words that join a name's parts and the prepositions
    before an organisation's own name, of both sides; the target's titles (folded, no dot); the target's
    prepositions that may stand inside a body's name, between its capitalized words ("Access to Administrative
    Documents"), never joining two names by themselves."""

    months_src: tuple[str, ...]
    months_tgt: tuple[str, ...]
    joiners: frozenset[str]
    prepositions: frozenset[str]
    titles: frozenset[str]
    inner_prepositions: frozenset[str] = frozenset()

    @staticmethod
    @cache
    def of(src: str = "pt", tgt: str = "en") -> TransferWords:
        s, t = _section(src), _section(tgt)
        return TransferWords(tuple(s["months"]), tuple(t["months"]), frozenset(s["joiners"]) | frozenset(t["joiners"]),
                             frozenset(s["prepositions"]) | frozenset(t["prepositions"]), frozenset(t.get("titles", ())),
                             frozenset(t.get("inner_prepositions", ())))
