"""The engine's memo of repeated texts (anonymize/segment_memo.py): a text seen before gives what a new recognition
gives, whatever the document around it. Documents written for the test (no string of any evaluation set)."""

from __future__ import annotations

import pytest
from paranon.anonymize.engine import Anonymizer
from paranon.anonymize.recognizer import Recognizer
from paranon.anonymize.recognizers.fallback_lone_name import LoneNameFallback
from paranon.anonymize.recognizers.organization import OrganizationRecognizer


@pytest.fixture(scope="module")
def fresh(cfg):
    """An anonymizer that recognizes every text anew (the reference)."""
    an = Anonymizer(cfg)
    an.memo = None
    return an


def _found(anonymizer, docs):
    return [[[(m.start, m.end, m.category, m.rule, m.subtype) for m in ms] for ms in anonymizer.recognize_document(d)]
            for d in docs]


# the same text in documents whose memory answers differently: the memo must not carry one document's answer over
@pytest.mark.parametrize("docs", [
    # the document writes the name's word in lower case elsewhere, then one that does not
    [["Rosa Tavares chegou ontem.", "A rosa do jardim murchou."], ["Rosa Tavares chegou ontem."]],
    # an acronym defined after its long form, then a document that never defines it
    [["A Agência de Vinhos do Sul (AVS) decidiu.", "A AVS reuniu-se."], ["A AVS reuniu-se."]],
    # a legal act's dates are public, a contract's are not
    [["Decisão n.o 7/2031 do Comité Misto", "Feito em 3 de maio de 2031."], ["Feito em 3 de maio de 2031."]],
    # a speaker the document names (per-document state of a recognizer), then no speaker
    [["Na reunião, disse Xandoval que não.", "Xandoval saiu."], ["Xandoval saiu."]],
])
def test_a_repeated_text_gives_what_a_new_recognition_gives(anonymizer, fresh, docs):
    both = docs + docs[::-1] + docs  # every order, each text seen again
    assert _found(anonymizer, both) == _found(fresh, both)


def test_a_repeated_text_is_recognized_once(anonymizer):
    hits = anonymizer.memo.hits
    doc = ["A Ferragens Quintela, Lda. vendeu o lote.", "Pagou a Serralharia Bouça, Lda."]
    first = _found(anonymizer, [doc])
    assert _found(anonymizer, [doc]) == first
    assert anonymizer.memo.hits >= hits + 2


def test_the_memo_hands_out_new_mentions(anonymizer):
    text = "O cliente Ilídio Carvalhal pagou."
    (ms,) = anonymizer.recognize_document([text])
    assert ms
    for m in ms:  # later stages change mentions in place (numbering, a legal act's dates)
        m.category, m.entity = "DATE", 7
    (again,) = anonymizer.recognize_document([text])
    assert all(m.category != "DATE" and m.entity == 0 for m in again)


class _Prepared(Recognizer):  # per-document state it does not name
    def prepare(self, texts):
        self.first = texts[:1]


class _Named(_Prepared):
    def document_state(self):
        return tuple(self.first)


@pytest.mark.parametrize(("cls", "safe"), [
    (OrganizationRecognizer, True),  # no per-document state
    (LoneNameFallback, True),        # names its state (the document's speakers)
    (_Prepared, False),              # keeps a state it does not name: the memo is off
    (_Named, True),
])
def test_a_recognizer_with_unnamed_document_state_turns_the_memo_off(cls, safe):
    assert cls.memo_safe(object.__new__(cls)) is safe
