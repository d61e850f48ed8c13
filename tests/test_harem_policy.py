"""HAREM read in paranon's person policy (``names_only``, the ``harem-names`` format): a PESSOA/INDIVIDUAL span
is cut to the name by the rule the tuning set is built with (corpora/person_policy.py). Written sentences."""

from __future__ import annotations

from pathlib import Path

import pytest
from paranon.anonymize.evaluate import evaluate_ner
from paranon.corpora.harem import read_harem
from paranon.corpora.person_policy import name_start, roles_of

HEAD = "<DOC>\n<DOCID>P-1</DOCID>\n<GENERO>Web</GENERO>\n<TEXTO>\n"
TAIL = "\n</TEXTO>\n</DOC>\n"


def _p(text: str) -> str:
    return f'<PESSOA TIPO="INDIVIDUAL">{text}</PESSOA>'


def _read(tmp_path: Path, line: str, names_only: bool):
    p = tmp_path / "h1.txt"
    p.write_bytes((HEAD + line + TAIL).encode("iso-8859-1"))
    (doc,) = read_harem(p, names_only)
    (seg,) = doc.segments
    return seg, [(seg.text[e.start:e.end], e.label) for e in seg.entities if e.scored]


@pytest.mark.parametrize(("line", "whole", "names"), [
    # a title before the name: HAREM marks both, paranon hides the name only
    (f"Falou a {_p('Professora Idalina Serpa')} ontem.", "Professora Idalina Serpa", "Idalina Serpa"),
    # an abbreviated title with its full stop, and an article in lower case
    (f"Chegou {_p('o Dr. Baltasar Queiroga')}.", "o Dr. Baltasar Queiroga", "Baltasar Queiroga"),
    # a kinship noun (+HUM) in lower case
    (f"Lembro {_p('a tia Ermelinda')} bem.", "a tia Ermelinda", "Ermelinda"),
    # a name alone is left whole
    (f"{_p('Custódio Albergaria')} saiu.", "Custódio Albergaria", "Custódio Albergaria"),
])
def test_person_spans_are_cut_to_the_name(tmp_path: Path, line, whole, names):
    _, kept = _read(tmp_path, line, names_only=False)
    assert kept == [(whole, "PESSOA/INDIVIDUAL")]
    _, cut = _read(tmp_path, line, names_only=True)
    assert cut == [(names, "PESSOA/INDIVIDUAL")]


@pytest.mark.parametrize("role", ["o Presidente", "a Senhora Ministra", "o Juiz"])
def test_a_role_alone_is_not_scored(tmp_path: Path, role):
    seg, kept = _read(tmp_path, f"Entrou {_p(role)} cedo.", names_only=True)
    assert kept == []
    assert [e.label for e in seg.entities] == ["PESSOA/INDIVIDUAL role"]


@pytest.mark.parametrize(("words", "start"), [
    (["Sr", ".", "Anselmo", "Brito"], 2),     # a title and its full stop as two tokens
    (["a", "sobrinha", "Leonor"], 2),         # an article and a +HUM noun
    (["Engenheira", "Cátia"], 1),             # a title
    (["o", "Presidente"], None),              # a role alone: no name
])
def test_name_start(words, start):
    assert name_start(words, roles_of()) == start


def test_eval_ner_harem_names_format(tmp_path: Path, cfg):
    p = tmp_path / "h1.txt"
    p.write_bytes((HEAD + f"Falou a {_p('Professora Idalina Serpa')} ontem." + TAIL).encode("iso-8859-1"))
    whole = evaluate_ner(p, "harem", None, cfg)
    names = evaluate_ner(p, "harem-names", None, cfg)
    assert whole["leaked_tokens"]["PERSON"]["gold"] == 3
    assert names["format"] == "harem-names" and names["leaked_tokens"]["PERSON"]["gold"] == 2
