"""``paranon train ner`` trains a real spaCy NER, and ``anonymize.models`` uses it next to the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paranon.anonymize.engine import Anonymizer
from paranon.anonymize.recognizers.statistical import SHIPPED, model_path
from paranon.anonymize.train import split_tuning, train_ner

from paranon.config import load_config
from paranon.errors import InputError

# A tiny invented court corpus: every name below is made up for these tests.
PEOPLE = ["Albertina Quaresma", "Gervásio Pimentel", "Leocádia Furtado", "Severino Cordeiro",
          "Hortênsia Valadares", "Anacleto Bragança", "Filomena Arruda", "Teodoro Sampaio"]
ORGS = ["Construtora Vidalense", "Banco Meridional", "Transportes Ribalta", "Seguradora Atlântida"]
TEMPLATES = ["O recurso de {P} contra a {O} foi julgado improcedente .",
             "{P} , representante da {O} , assinou o contrato .",
             "A {O} contratou {P} para a obra .",
             "Intimem-se {P} e a {O} da decisão ."]
# (sentence, the name the model must find in it): names and templates combined as in training
SEEN_FORMS = [("O recurso de Filomena Arruda contra a Banco Meridional foi julgado improcedente .", "Filomena Arruda"),
              ("Intimem-se Anacleto Bragança e a Construtora Vidalense da decisão .", "Anacleto Bragança")]


def _conll(sentence: str, person: str, org: str) -> str:
    words = sentence.split(" ")
    tags = ["O"] * len(words)
    for name, label in ((person, "PESSOA"), (org, "ORGANIZACAO")):
        n = name.split(" ")
        for i in range(len(words) - len(n) + 1):
            if words[i:i + len(n)] == n:
                tags[i:i + len(n)] = [f"B-{label}"] + [f"I-{label}"] * (len(n) - 1)
    return "\n".join(f"{w} {t}" for w, t in zip(words, tags, strict=True))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Four documents of invented sentences, one CoNLL file each (the fourth is the tuning split)."""
    folder = tmp_path_factory.mktemp("conll")
    for d in range(4):
        sents = [_conll(t.format(P=p, O=o), p, o) for i, p in enumerate(PEOPLE) for j, t in enumerate(TEMPLATES)
                 for o in [ORGS[(i + j + d) % len(ORGS)]]]
        (folder / f"doc{d}.conll").write_text("\n\n".join(sents) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def small_model(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("ner-model")
    summary = train_ner(str(corpus), None, str(out), iterations=12, quiet=True, tune_every=4, patience=12)
    assert summary["losses"][-1] < summary["losses"][0], "training lowers the loss"
    return out


def test_trained_model_is_saved_with_its_labels_and_tuning_split(small_model):
    info = json.loads((small_model / "paranon-train.json").read_text(encoding="utf-8"))
    assert {"PESSOA", "ORGANIZACAO"} <= set(info["labels"])
    assert info["tuning_documents"] == ["doc3"]
    assert info["tuning_f1"][-1] > 0.5
    assert (small_model / "ner").is_dir()


def test_the_saved_model_holds_no_word_of_its_training_text(small_model):
    strings = set(json.loads((small_model / "vocab" / "strings.json").read_text(encoding="utf-8")))
    words = {w for n in PEOPLE + ORGS for w in n.split()}
    assert not words & strings


@pytest.mark.parametrize("sentence,name", SEEN_FORMS)
def test_statistical_recognizer_adds_model_mentions(small_model, sentence, name):
    cfg = load_config()
    cfg["anonymize"]["models"] = [{"model": str(small_model)}]
    cfg["anonymize"]["recognizers"] = ["statistical"]  # the model alone
    an = Anonymizer(cfg)
    found = an.recognize_document([sentence])[0]
    assert any(m.text == name and m.category == "PERSON" for m in found)


@pytest.mark.parametrize("sentence,_", SEEN_FORMS)
def test_union_never_unmasks_what_the_rules_found(small_model, sentence, _):
    cfg = load_config()
    cfg["anonymize"]["models"] = [{"model": str(small_model)}]
    found = Anonymizer(cfg).recognize_document([sentence])[0]
    rules = load_config()
    rules["anonymize"]["models"] = []
    for r in Anonymizer(rules).recognize_document([sentence])[0]:
        assert any(m.start < r.end and r.start < m.end for m in found), r.category


@pytest.mark.parametrize("docs,every,train,tune", [
    ([("a", [1, 2]), ("b", [3]), ("c", [4])], 3, [("a", [1, 2]), ("b", [3])], [("c", [4])]),
    ([("a", [1, 2, 3, 4])], 2, [("train", [1, 3])], [("tune", [2, 4])]),  # one document: every Nth sentence
    ([("a", [1]), ("b", [2])], 0, [("a", [1]), ("b", [2])], []),  # no tuning split
])
def test_tuning_split_takes_whole_documents_of_the_training_data(docs, every, train, tune):
    assert split_tuning(docs, every) == (train, tune)


@pytest.mark.parametrize("content,message", [
    ("Tribunal B-ORGANIZACAO\nde X-ORGANIZACAO\n", r"bad\.conll:2: 'X-ORGANIZACAO' is not an IOB2 or IO tag"),
    ("Tribunal\n", r"bad\.conll:1: expected 'TOKEN TAG'"),
    ("\n\n", r"no sentences"),
])
def test_bad_training_data_is_a_clear_error(tmp_path, content, message):
    (tmp_path / "bad.conll").write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        train_ner(str(tmp_path / "bad.conll"), None, str(tmp_path / "m"), iterations=1, quiet=True)


def test_a_missing_model_is_a_clear_error():
    cfg = load_config()
    cfg["anonymize"]["models"] = [{"model": "/nonexistent/model"}]
    with pytest.raises(ValueError, match="cannot load spaCy model"):
        Anonymizer(cfg)


BUILT = (SHIPPED / "pt_legal_ner" / "config.cfg").is_file()
needs_built_model = pytest.mark.skipif(not BUILT, reason="pt_legal_ner not built (python bench/train_ner.py)")


@pytest.mark.parametrize("name,shipped", [("pt_legal_ner", True), ("/some/folder/pt_legal_ner", False),
                                          ("pt_core_news_lg", False)])
def test_a_shipped_model_is_named_by_its_folder_alone(tmp_path, monkeypatch, name, shipped):
    from paranon.anonymize.recognizers import statistical

    (tmp_path / "pt_legal_ner").mkdir()
    (tmp_path / "pt_legal_ner" / "config.cfg").write_text("[nlp]\n", encoding="utf-8")
    monkeypatch.setattr(statistical, "SHIPPED", tmp_path)
    assert (model_path(name) == str(tmp_path / "pt_legal_ner")) is shipped


def test_naming_paranons_model_before_it_is_built_names_the_recipe(tmp_path, monkeypatch):
    from paranon.anonymize.recognizers import statistical

    monkeypatch.setattr(statistical, "SHIPPED", tmp_path / "models")
    (tmp_path / "models").mkdir()
    cfg = load_config()
    cfg["anonymize"]["models"] = ["pt_legal_ner"]
    with pytest.raises(ValueError, match="not built here.*bench/train_ner.py"):
        Anonymizer(cfg)


@needs_built_model
def test_the_shipped_model_is_small_and_names_its_training_data_and_licence():
    folder = SHIPPED / "pt_legal_ner"
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    assert size < 10_000_000
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "Licence: MIT" in readme and "LeNER-Br" in readme
    assert "MIT License" in (folder / "LICENSE").read_text(encoding="utf-8")
    info = json.loads((folder / "paranon-train.json").read_text(encoding="utf-8"))
    assert [d["name"] for d in info["training_data"]] == ["LeNER-Br train"]


# Invented names in the shapes of court text; the shipped model alone (no rules) must find each.
SHIPPED_CASES = [("Trata-se de agravo interposto por Rosalinda Peixoto Marinho contra decisão do relator .",
                  "Rosalinda Peixoto Marinho"),
                 ("Relator : Desembargador Gumercindo Tavares Lobato", "Gumercindo Tavares Lobato"),
                 ("O Ministro Evaristo Quintela Barros votou com o relator .", "Evaristo Quintela Barros")]


@pytest.fixture(scope="module")
def shipped_alone() -> Anonymizer:
    cfg = load_config()
    cfg["anonymize"]["models"] = ["pt_legal_ner"]  # the opt-in setting, named by folder alone
    cfg["anonymize"]["recognizers"] = ["statistical"]
    return Anonymizer(cfg)


@needs_built_model
@pytest.mark.parametrize("sentence,name", SHIPPED_CASES)
def test_the_shipped_model_loads_offline_by_name_and_finds_people(shipped_alone, sentence, name):
    found = shipped_alone.recognize_document([sentence])[0]
    assert [(m.text, m.category) for m in found] == [(name, "PERSON")]


def test_the_shipped_model_is_opt_in_because_it_costs_speed():
    assert load_config()["anonymize"]["models"] == []
    assert not any(r.name == "statistical" for r in Anonymizer(load_config()).recognizers)


@pytest.mark.parametrize("extra,code", [
    ([], 0),
    (["--iterations", "0"], 2),  # one clear line, exit 2
    (["--train", "/nonexistent/train.conll"], 2),
])
def test_paranon_train_ner_command(corpus, tmp_path, capsys, extra, code):
    from paranon.cli import main

    args = ["train", "ner", "--train", str(corpus), "-o", str(tmp_path / "m"), "--iterations", "1",
            "--tune-every", "0", "--quiet", *extra]
    assert main(args) == code
    if code == 0:
        assert json.loads(capsys.readouterr().out)["labels"] == ["ORGANIZACAO", "PESSOA"]
    else:
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
