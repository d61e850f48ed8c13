"""The recognizer plug-ins (issue 19): one per file, all built and run the same way, the chain analysis computed
once per segment by the engine and shared, and what a recognizer learns for the document handed back through
the analysis (a recognizer never writes into the document's memory)."""

from __future__ import annotations

import copy
import inspect
from pathlib import Path

import pytest
from paranon.anonymize import engine as engine_module
from paranon.anonymize.engine import Anonymizer, build_recognizers
from paranon.anonymize.recognizer import REGISTRY, DocumentMemory, Recognizer, Segment


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_each_recognizer_lives_in_a_file_of_its_own_name(name):
    assert Path(inspect.getfile(REGISTRY[name])).stem == name


def test_no_file_of_the_plug_in_folder_holds_two_recognizers():
    classes = [cls for cls in REGISTRY.values()]
    files = [inspect.getfile(cls) for cls in classes]
    assert len(set(files)) == len(files)


@pytest.mark.parametrize("setting,value,name", [
    ("deny", {"PERSON": ["Zeferino Bastos"]}, "denylist"),
    ("deny", {}, "denylist"),
    ("models", [], "statistical"),
])
def test_a_recognizer_gets_the_settings_it_names_among_its_options(anonymizer, setting, value, name):
    a = {"recognizers": [name], setting: value}
    built = build_recognizers(a, anonymizer.rules, anonymizer.lex)
    if name == "statistical":
        assert built == []  # no model: the entry adds no recognizer
    else:
        assert [r.options[setting] for r in built] == [value]


@pytest.mark.parametrize("text,denied", [
    ("O senhor Zeferino Bastos chegou.", "Zeferino Bastos"),
    ("Pagou à EMPRESA FICTÍCIA DO SUL.", "Empresa Fictícia do Sul"),
    ("ver o código QX-77 do processo", "qx-77"),
])
def test_the_deny_list_is_built_like_every_recognizer(cfg, text, denied):
    c = copy.deepcopy(cfg)
    c["anonymize"]["deny"] = {"NAMEID": [denied]}
    found = Anonymizer(c).recognize_document([text])[0]
    assert any(m.rule == "deny-list" and m.text.lower() == denied.lower() for m in found)


def test_an_unknown_recognizer_is_named_in_one_line(anonymizer):
    with pytest.raises(ValueError, match="unknown recognizer 'spelling'"):
        build_recognizers({"recognizers": ["spelling"]}, anonymizer.rules, anonymizer.lex)


@pytest.mark.parametrize("texts", [
    ["O Instituto de Pesca do Algarve (IPA) reuniu.", "O IPA decidiu.", "Nada mais."],
    ["Sem nomes aqui.", "Nem aqui."],
    ["A Câmara Municipal de Ourém (CMO) e o Banco Varandas.", "A CMO pagou ao Banco Varandas."],
])
def test_the_chains_are_analysed_once_per_segment(anonymizer, monkeypatch, texts):
    calls = []
    real = engine_module.analyse

    def counting(*args, **kwargs):
        calls.append(args[0].text)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine_module, "analyse", counting)
    anonymizer.recognize_document(texts)
    assert calls == texts


@pytest.mark.parametrize("first,later,acronym", [
    ("O Instituto de Pesca do Algarve (IPA) reuniu.", "O IPA decidiu.", "IPA"),
    ("A Agência de Registos do Norte (ARN) abriu.", "A ARN fechou.", "ARN"),
    ("O Banco Comercial de Setúbal (BCS) emprestou.", "O BCS cobrou.", "BCS"),
])
def test_an_acronym_learned_in_a_segment_is_handed_back_not_written_by_the_recognizer(anonymizer, first, later,
                                                                                      acronym):
    memory = DocumentMemory()
    doc = anonymizer.tokenize(first)
    from paranon.anonymize.chains import analyse
    from paranon.anonymize.recognizer import SegmentAnalysis

    analysis = SegmentAnalysis(analyse(doc, anonymizer.chain_rules, anonymizer.lex, set(), first),
                               anonymizer.chain_rules, doc, memory)
    seg = Segment(text=first, doc=doc, memory=memory, analysis=analysis)
    for rec in anonymizer.recognizers:
        seg.found += rec.find(seg)
    assert memory.acronyms == {}  # find() never writes into the document's memory ...
    assert acronym in analysis.learned  # ... it tells the analysis, and the engine carries it on:
    found = anonymizer.recognize_document([first, later])[1]
    assert [(m.text, m.rule) for m in found] == [(acronym, "acronym:remembered")]


def test_every_recognizer_has_the_same_hooks():
    for cls in REGISTRY.values():
        assert issubclass(cls, Recognizer)
        for hook in ("build", "prepare", "find", "validate_result"):
            assert callable(getattr(cls, hook))
