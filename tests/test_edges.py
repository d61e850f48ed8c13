"""The edges of an aligned English name: a head noun that translates a visible source word is cut off."""

from __future__ import annotations

import pytest
from paranon.align.edges import trim_translated_heads
from paranon.align.transfer import TransferResult
from paranon.corpora.model import Mention


def _run(src_anon: str, tgt: str, span: str, links, recognizer="transfer:alignment"):
    placeholder = "<NAME1_ORGANIZATION>"
    ps = src_anon.index(placeholder)
    src_ms = [Mention(ps, ps + len(placeholder), "ORGANIZATION", placeholder, "x", "x", entity=1)]
    s = tgt.index(span)
    tr = TransferResult([Mention(s, s + len(span), "ORGANIZATION", span, recognizer, "head", entity=1)])
    trim_translated_heads(tr, src_anon, src_ms, tgt, links)
    return tr.mentions[0].text


@pytest.mark.parametrize("src_anon, tgt, span, links, kept", [
    # the head noun and its joiners translate visible source words: cut off
    ("Regulamento do <NAME1_ORGANIZATION> e do Conselho", "Regulation of the European Parliament and of the Council",
     "Regulation of the European Parliament", [(0, 0), (1, 1), (1, 2), (2, 3), (2, 4), (3, 5)],
     "European Parliament"),
    ("Decisão do <NAME1_ORGANIZATION> n.o 1/2019", "Decision of the Joint Committee No 1/2019",
     "Decision of the Joint Committee", [(0, 0), (1, 1), (2, 3), (2, 4)], "Joint Committee"),
    ("nos termos da Diretiva da <NAME1_ORGANIZATION>,", "under the Directive of the Wine Institute,",
     "Directive of the Wine Institute", [(0, 0), (3, 2), (4, 3), (5, 5), (5, 6), (6, 7)], "Wine Institute"),
    # the first word is linked to the placeholder: the whole name stays
    ("Regulamento do <NAME1_ORGANIZATION>", "Regulation of the Marés Pescas", "Marés Pescas", [(0, 0), (2, 3), (2, 4)],
     "Marés Pescas"),
    # linked to a visible word, but a rare word: a name's own word stays
    ("A Hortogal e o <NAME1_ORGANIZATION>", "The Hortogal Board", "Hortogal Board", [(1, 1), (4, 2)], "Hortogal Board"),
    # linked to a lower-case source word only (an alignment error): the name stays whole
    ("na sede do <NAME1_ORGANIZATION>.", "at the headquarters of the Ministry of Finance.", "Ministry of Finance",
     [(1, 2), (2, 3), (1, 5), (3, 6), (3, 7)], "Ministry of Finance"),
    # not linked at all: kept
    ("Regulamento do <NAME1_ORGANIZATION>", "Regulation of the European Parliament", "Regulation of the European Parliament",
     [(2, 3), (2, 4)], "Regulation of the European Parliament"),
    # no joiner after the translated word: a name's own first word, kept ("Empresa Comum <ORG>")
    ("a Empresa Comum <NAME1_ORGANIZATION>", "the Joint Undertaking", "Joint Undertaking", [(2, 1), (3, 2)],
     "Joint Undertaking"),
    # every word translates visible words: nothing is left to cut to, kept as it is
    ("o Regulamento Geral <NAME1_ORGANIZATION>", "the General Regulation", "General Regulation", [(1, 2), (2, 1)],
     "General Regulation"),
])
def test_an_aligned_name_loses_its_translated_head(src_anon, tgt, span, links, kept):
    assert _run(src_anon, tgt, span, links) == kept


def test_only_aligned_mentions_are_trimmed():
    assert _run("Regulamento do <NAME1_ORGANIZATION>", "Regulation of the European Parliament",
                "Regulation of the European Parliament", [(0, 0), (1, 1), (2, 3), (2, 4)],
                recognizer="transfer:string") == "Regulation of the European Parliament"
