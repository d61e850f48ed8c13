"""Public mentions found in another process (the consistency stage's workers) taken into the anonymizer's memo,
for the transfer stage's workers forked after it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from paranon.anonymize import corpus
from paranon.anonymize.corpus import adopt_public

# memo before, found elsewhere, memo after (a memo of at most 3 texts)
CASES = [
    ("new texts are taken", {}, {"Feito em Cotonu.": ["m1"], "Norma ISO 9001": ["m2"]},
     {"Feito em Cotonu.": ["m1"], "Norma ISO 9001": ["m2"]}),
    ("a text known here keeps its entry", {"Feito em Cotonu.": ["here"]}, {"Feito em Cotonu.": ["there"]},
     {"Feito em Cotonu.": ["here"]}),
    ("a full memo takes no more", {"a": [], "b": [], "c": []}, {"Regulamento (UE) 2019/1": ["m"]},
     {"a": [], "b": [], "c": []}),
]


@pytest.mark.parametrize("before, found, after", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_adopt_public(monkeypatch, before, found, after):
    monkeypatch.setattr(corpus, "PUBLIC_MEMO", 3)
    anonymizer = SimpleNamespace(public_memo=dict(before))
    adopt_public(anonymizer, found)
    assert anonymizer.public_memo == after
