"""What every reader shares: language matching, text normalization, and the input-problem log.

A reader never drops a unit silently: anything it cannot turn into a pair is
reported through :class:`Problems`, which either raises (``--strict``) or counts
the problem with a one-line message naming the file and line or unit id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from ...errors import InputError

# `&'92;` style hexadecimal meta-character codes found in old TM exports (Windows-1252 code points).
HEX_META_CODE = regex.compile(r"&'([0-9A-Fa-f]{2});")
# the unit id a reader's message names, "(unit CONTRATO-1:3)": not for public files
UNIT_IN_MESSAGE = regex.compile(r" \(unit [^)]*\)")
WHITESPACE_RUN = regex.compile(r"[ \t\u00a0]{2,}")


DOCUMENT_PAIRS = 1000  # default for ``input.document_pairs``


class PseudoDocuments:
    """Document ids for the units of one file that name no document: the file's name for the first
    ``size`` of them, then ``NAME#2``, ``NAME#3`` ... for each next ``size``.

    A document is the numbering scope (one entity, one number) and goes whole into one chunk, so a TM
    without document ids, read as one document, would be anonymized by one process with all of its names
    clustered together. Consecutive units of a TM export mostly come from the same text, so blocks of
    consecutive units are the nearest thing to its documents; a file within ``size`` units keeps its name."""

    def __init__(self, name: str, size: int = DOCUMENT_PAIRS) -> None:
        if size < 1:
            raise InputError(f"input.document_pairs must be at least 1, not {size}")
        self.name, self.size, self.n = name, size, 0

    def next(self) -> str:
        k = self.n // self.size
        self.n += 1
        return self.name if k == 0 else f"{self.name}#{k + 1}"


@dataclass
class Problems:
    """Collects skipped units and why; raises on the first one when strict.

    ``examples`` go into the public report, so there a file is named by its alias (``file-0001``, see
    :meth:`alias`; the map goes to the key store) and the unit by nothing but its line; the one-line error
    of ``--strict`` names the real path and unit, for the person running paranon."""

    strict: bool = False
    reasons: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    max_examples: int = 200
    files: dict[str, str] = field(default_factory=dict)  # input path -> public alias

    def alias(self, path: object) -> str:
        key = str(path)
        if key not in self.files:
            self.files[key] = f"file-{len(self.files) + 1:04d}"
        return self.files[key]

    def public(self, message: str) -> str:
        """A message fit for the report: paths replaced by their aliases, unit ids left out."""
        for path in sorted(self.files, key=len, reverse=True):
            message = message.replace(path, self.files[path])
        return UNIT_IN_MESSAGE.sub("", message)

    def report(self, where: str, reason: str, detail: str = "") -> None:
        message = f"{where}: {reason}" + (f" ({detail})" if detail else "")
        if self.strict:
            raise InputError(message)
        self.reasons[reason] += 1
        if len(self.examples) < self.max_examples:
            self.examples.append(self.public(message))

    @property
    def skipped(self) -> int:
        return sum(self.reasons.values())


@lru_cache(maxsize=1024)
def lang_matches(code: str, wanted: str) -> bool:
    """``pt`` matches ``pt``, ``pt-PT``, ``PT-PT``, ``pt_BR``; ``pt-BR`` matches only Brazilian codes."""
    code = code.strip().lower().replace("_", "-")
    wanted = wanted.strip().lower().replace("_", "-")
    if "-" in wanted:
        return code == wanted
    return code.split("-", 1)[0] == wanted


def decode_hex_meta(text: str) -> str:
    """Turn ``&'92;`` (Windows-1252 code 0x92) into the character it stands for."""

    def repl(m: regex.Match) -> str:
        try:
            return bytes([int(m.group(1), 16)]).decode("cp1252")
        except UnicodeDecodeError:
            return m.group(0)

    return HEX_META_CODE.sub(repl, text)


def normalize_text(text: str) -> str:
    """Preprocessing shared by all readers: meta-character codes and line breaks inside a segment."""
    if "&'" in text:
        text = decode_hex_meta(text)
    return text.replace("\r\n", "\n").replace("\r", "\n")
