"""``paranon train ner``: fine-tune a spaCy NER on CoNLL data, for use as ``anonymize.models``.

The model starts from a blank Portuguese pipeline with paranon's tokenizer exceptions (no pretrained
pipeline can be downloaded here; a user who has one can list it in ``anonymize.models`` directly). Gold
sentences are rebuilt from their tokens (joined by single spaces, as ``eval ner`` does) so the model sees
text tokenized exactly as at prediction time.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ..corpora.formats.common import InputError


def _examples(path: str | Path, nlp) -> list:
    from spacy.tokens import Doc
    from spacy.training import Example

    from .evaluate import _conll_documents

    out = []
    for _, sents in _conll_documents(Path(path)):
        for s in sents:
            words = s.text.split(" ")
            doc = Doc(nlp.vocab, words=words)
            ents = [(s.tokens[a][0], s.tokens[b - 1][1], label) for a, b, label in s.gold]
            pred = nlp.make_doc(s.text)
            try:
                out.append(Example.from_dict(pred, {"entities": ents}))
            except ValueError:
                out.append(Example.from_dict(doc, {"entities": ents}))
    return out


def train_ner(train: str, dev: str | None, output: str, iterations: int = 10, seed: int = 0,
              quiet: bool = False, limit: int | None = None) -> dict[str, Any]:
    import spacy
    from spacy.util import minibatch

    from .engine import build_tokenizer, load_rules

    if not Path(train).exists():
        raise InputError(f"{train}: no such file")
    if iterations < 1:
        raise InputError("--iterations must be at least 1")
    spacy.util.fix_random_seed(seed)
    nlp = build_tokenizer(load_rules("pt"))
    ner = nlp.add_pipe("ner")
    examples = _examples(train, nlp)
    if limit:
        examples = examples[:limit]
    if not examples:
        raise InputError(f"{train}: no sentences")
    for ex in examples:
        for ent in ex.reference.ents:
            ner.add_label(ent.label_)
    optimizer = nlp.initialize(lambda: examples)
    rng = random.Random(seed)
    losses_by_epoch = []
    for epoch in range(iterations):
        rng.shuffle(examples)
        losses: dict[str, float] = {}
        for batch in minibatch(examples, size=32):
            nlp.update(batch, sgd=optimizer, drop=0.2, losses=losses)
        losses_by_epoch.append(round(float(losses.get("ner", 0.0)), 2))
        if not quiet:
            print(f"epoch {epoch + 1}/{iterations}: ner loss {losses_by_epoch[-1]}")
    Path(output).mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output)
    summary: dict[str, Any] = {"model": str(output), "labels": sorted(ner.labels), "sentences": len(examples),
                               "losses": losses_by_epoch}
    if dev:
        dev_examples = _examples(dev, nlp)
        scores = nlp.evaluate(dev_examples)
        summary["dev"] = {"ents_p": round(float(scores["ents_p"]), 4), "ents_r": round(float(scores["ents_r"]), 4),
                          "ents_f": round(float(scores["ents_f"]), 4)}
    (Path(output) / "paranon-train.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
