"""``text.fold`` strips accents one non-ASCII character at a time: the same string as decomposing the whole
casefolded text (NFKD) and dropping its combining marks, for every code point and between letters."""

from __future__ import annotations

import random
import sys
import unicodedata

import pytest

from paranon.text import _fold


def whole(text: str) -> str:
    nfkd = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in nfkd if not unicodedata.combining(c))


@pytest.mark.parametrize("text, folded", [
    ("Conceição", "conceicao"),
    ("STRAßE", "strasse"),  # casefold makes two letters of one
    ("ﬁnal Ǆ", "final dz"),  # compatibility ligatures
    ("İstanbul", "istanbul"),  # a capital whose lowercase carries a combining dot
    ("e\u0301 a\u0328\u0301", "e a"),  # combining marks typed apart, two on one letter
    ("½ m²", "1⁄2 m2"),  # compatibility digits
])
def test_examples(text, folded):
    assert _fold(text) == folded == whole(text)


def test_every_code_point():
    assert [cp for cp in range(sys.maxunicode + 1) if not 0xD800 <= cp <= 0xDFFF
            and _fold(chr(cp)) != whole(chr(cp))] == []


def test_mixed_strings():
    rnd = random.Random(0)
    pool = [chr(cp) for cp in [*range(0x20, 0x250), *range(0x300, 0x370), *range(0x1E00, 0x1F00), 0x130, 0x3A3,
                               0xFB01, 0xAC00, 0x0F73, 0x0F81]]
    texts = ["".join(rnd.choices(pool, k=rnd.randint(1, 12))) for _ in range(50_000)] + ["한국어"]  # jamo
    assert [t for t in texts if _fold(t) != whole(t)] == []
