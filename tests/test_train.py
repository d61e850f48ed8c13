"""``paranon train ner`` trains a real spaCy NER, and ``anonymize.models`` uses it next to the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paranon.anonymize.engine import Anonymizer
from paranon.anonymize.train import train_ner

from paranon.config import load_config
from tests.conftest import SHARED, needs_shared

LENER = SHARED / "lener-br"


@pytest.fixture(scope="module")
def small_model(tmp_path_factory) -> Path:
    """A model trained on the first 400 sentences of LeNER-Br train (a few epochs: enough to learn names)."""
    out = tmp_path_factory.mktemp("ner-model")
    summary = train_ner(str(LENER / "train.conll"), None, str(out), iterations=4, quiet=True, limit=400)
    assert summary["losses"][-1] < summary["losses"][0], "training lowers the loss"
    return out


@needs_shared(LENER)
def test_trained_model_is_saved_with_its_labels(small_model):
    info = json.loads((small_model / "paranon-train.json").read_text(encoding="utf-8"))
    assert {"PESSOA", "ORGANIZACAO"} <= set(info["labels"])
    assert (small_model / "ner").is_dir()


@needs_shared(LENER)
def test_statistical_recognizer_adds_model_mentions(small_model):
    cfg = load_config()
    cfg["anonymize"]["models"] = [{"model": str(small_model), "labels": {"PESSOA": "PERSON",
                                                                         "ORGANIZACAO": "ORGANIZATION"}}]
    an = Anonymizer(cfg)
    assert any(r.name == "statistical" for r in an.recognizers)
    texts = [line.split(" ")[0] for line in (LENER / "dev.conll").read_text(encoding="utf-8").splitlines()[:400]]
    found = an.recognize_document([" ".join(t for t in texts if t)])[0]
    assert found  # the union of rules and model finds entities in court text
    rules_only = Anonymizer(load_config()).recognize_document([" ".join(t for t in texts if t)])[0]
    for r in rules_only:  # union: adding a model never un-masks what the rules found
        assert any(m.start < r.end and r.start < m.end for m in found), r.text


def test_a_missing_model_is_a_clear_error():
    cfg = load_config()
    cfg["anonymize"]["models"] = [{"model": "/nonexistent/model"}]
    with pytest.raises(ValueError, match="cannot load spaCy model"):
        Anonymizer(cfg)
