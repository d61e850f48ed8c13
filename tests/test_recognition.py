"""Recognition on unseen text (issue 17): each rule's linguistic class as a table of examples written for
the test, and the privacy rule that a rule name never holds words of the input."""

from __future__ import annotations

import pytest
import regex
from paranon.anonymize.lexicons import fold
from paranon.corpora.model import SegmentPair

WORD = regex.compile(r"\p{L}{2,}")


def _document(anonymizer, texts: list[str]):
    pairs = [SegmentPair(id=str(k), doc="d", src=t, tgt="") for k, t in enumerate(texts)]
    return anonymizer.anonymize_document(pairs)


def _masked(anonymizer, texts: list[str]) -> list[str]:
    return [rep.text for _ms, rep in _document(anonymizer, texts)]


# planted names of every class the rules read: surnames spelt like legal forms (Sá ~ SA, Lima ~ LIMA), names
# after role nouns and titles, trigger words and public nouns whose matched text a rule could copy
PLANTED = [
    ["A Sá Pinto assinou.", "A mulher Quitéria Sá disse que o sócio Oleksandr Kovalenko e a Dra. Iolanda Brás votaram."],
    ["A Tintas Belmiro & Irmão, Lda. e o Banco Varandas celebraram.", "NIF 503 004 529, tel. 912 345 678."],
    ["O Decreto-Lei n.º 12/2019 e o Ministério das Pescas.", "A testemunha Zulmira Quaresma, gerente da Ervas Finas SA."],
]


@pytest.mark.parametrize("texts", PLANTED)
def test_rule_names_never_hold_input_words(anonymizer, texts):
    words = {fold(w) for t in texts for w in WORD.findall(t)}
    rules = [m.rule for ms, _rep in _document(anonymizer, texts) for m in ms]
    assert rules  # the texts do hold entities
    for rule in rules:
        assert not {fold(w) for w in WORD.findall(rule)} & words, rule


@pytest.mark.parametrize("text, masked, visible", [
    # an accented surname is no legal-form tail (Sá is not SA), nor a capitalized article (As is not AS)
    ("A mulher Quitéria Sá disse.", "Quitéria Sá", "mulher"),
    ("Assinou a Ervas Finas SA em Lisboa.", "Ervas Finas SA", "Lisboa"),
    ("Assinou a Lacticínios Serra Velha, S.A. ontem.", "Lacticínios Serra Velha, S.A.", "ontem"),
])
def test_legal_form_tails_are_written_as_companies_write_them(anonymizer, text, masked, visible):
    [(ms, rep)] = _document(anonymizer, [text])
    assert masked not in rep.text and visible in rep.text
    assert any(m.text == masked for m in ms), [(m.text, m.category) for m in ms]
