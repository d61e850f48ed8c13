"""``paranon train ner``: train a spaCy NER from scratch on CoNLL data, for use as ``anonymize.models``.

The model starts from a blank Portuguese pipeline with paranon's tokenizer exceptions (no pretrained
pipeline or vectors can be downloaded here; a user who has one can list it in ``anonymize.models``
directly). Gold sentences are rebuilt from their tokens (joined by single spaces, as ``eval ner`` does) so
the model sees text tokenized exactly as at prediction time.

The network is small and quick on a CPU: hash embeddings of features that carry over to unseen text (the
lower-cased form, 3-letter prefix and suffix, word shape: ``Xxxxx``, ``XXXX``, ``dd.ddd``) and a narrow
CNN. Translation memories of legal text are often in capitals, so a share of the training sentences is
also shown upper-cased (``upper``). A tuning split (whole documents of the TRAIN data, never a test set)
stops training when its F1 stops rising, and the best epoch is the one saved.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

from ..errors import InputError

DEFAULTS: dict[str, Any] = {"width": 64, "depth": 2, "embed_size": 3000, "window": 1, "dropout": 0.2,
                            "batch": 32, "upper": 0.15, "patience": 2, "tune_every": 10}


def _documents(path: str | Path) -> list[tuple[str, list]]:
    from .evaluate import _conll_documents

    return list(_conll_documents(Path(path)))


def _example(nlp, s, upper: bool = False):
    from spacy.tokens import Doc
    from spacy.training import Example

    text = s.text.upper() if upper else s.text
    ents = [(s.tokens[a][0], s.tokens[b - 1][1], label) for a, b, label in s.gold]
    pred = nlp.make_doc(text)
    try:
        return Example.from_dict(pred, {"entities": ents})
    except ValueError:  # a gold span that the tokenizer splits differently: train on the gold tokens
        return Example.from_dict(Doc(nlp.vocab, words=text.split(" ")), {"entities": ents})


def _examples(docs: list[tuple[str, list]], nlp) -> list:
    return [_example(nlp, s) for _, sents in docs for s in sents]


def split_tuning(docs: list[tuple[str, list]], every: int) -> tuple[list, list]:
    """Every ``every``-th document (sorted by name) for tuning, the rest for training; one file: sentences."""
    if every < 2:
        return docs, []
    if len(docs) >= every:
        return ([d for i, d in enumerate(docs) if i % every != every - 1],
                [d for i, d in enumerate(docs) if i % every == every - 1])
    sents = [s for _, ss in docs for s in ss]
    return ([("train", [s for i, s in enumerate(sents) if i % every != every - 1])],
            [("tune", [s for i, s in enumerate(sents) if i % every == every - 1])])


def ner_config(width: int, depth: int, embed_size: int, window: int) -> dict[str, Any]:
    return {"model": {
        "@architectures": "spacy.TransitionBasedParser.v2", "state_type": "ner", "extra_state_tokens": False,
        "hidden_width": 64, "maxout_pieces": 2, "use_upper": True, "nO": None,
        "tok2vec": {"@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None,
                    "width": width, "depth": depth, "embed_size": embed_size, "window_size": window,
                    "maxout_pieces": 3, "subword_features": True}}}


def save_clean(nlp, output: str | Path, o: dict[str, Any]) -> None:
    """Save the NER into a fresh pipeline: its string store then holds the tokenizer's exceptions and the
    labels, not every word of the training text (the hash embeddings need no strings)."""
    from .engine import build_tokenizer, load_rules

    clean = build_tokenizer(load_rules("pt"))
    ner = clean.add_pipe("ner", config=ner_config(o["width"], o["depth"], o["embed_size"], o["window"]))
    ner.from_bytes(nlp.get_pipe("ner").to_bytes(exclude=["vocab"]), exclude=["vocab"])
    Path(output).mkdir(parents=True, exist_ok=True)
    clean.to_disk(output)


def _options(opts: dict[str, Any], tune_every: int | None) -> tuple[dict[str, Any], int]:
    """``DEFAULTS`` overlaid by the options given (``None``: not given); an unknown one is an error."""
    o = {**DEFAULTS, **{k: v for k, v in opts.items() if v is not None}}
    unknown = set(o) - set(DEFAULTS)
    if unknown:
        raise InputError(f"train ner: unknown option(s) {', '.join(sorted(unknown))}")
    return o, o["tune_every"] if tune_every is None else tune_every


def _first_sentences(docs: list, limit: int | None) -> list:
    """The documents up to ``limit`` sentences (the last one cut); all of them without a limit."""
    if not limit:
        return docs
    kept, n = [], 0
    for name, sents in docs:
        if n >= limit:
            break
        kept.append((name, sents[: limit - n]))
        n += len(kept[-1][1])
    return kept


def _epochs(nlp: Any, optimizer: Any, pool: list, tune: list, o: dict[str, Any], iterations: int,
            rng: random.Random, quiet: bool) -> tuple[list[float], list[float]]:
    """Train up to ``iterations`` epochs, stopping after ``patience`` epochs without a better tuning F1, and
    keep the best epoch's weights; the loss and tuning F1 of each epoch run."""
    from spacy.util import minibatch

    losses_by_epoch: list[float] = []
    tune_f: list[float] = []
    best, best_f, stale = None, -1.0, 0
    t0 = time.perf_counter()
    for epoch in range(iterations):
        rng.shuffle(pool)
        losses: dict[str, float] = {}
        for batch in minibatch(pool, size=o["batch"]):
            nlp.update(batch, sgd=optimizer, drop=o["dropout"], losses=losses)
        losses_by_epoch.append(round(float(losses.get("ner", 0.0)), 2))
        line = f"epoch {epoch + 1}/{iterations}: ner loss {losses_by_epoch[-1]}"
        if tune:
            f = float(nlp.evaluate(tune)["ents_f"] or 0.0)
            tune_f.append(round(f, 4))
            line += f", tuning F1 {f:.4f}"
            if f > best_f:
                best, best_f, stale = nlp.to_bytes(), f, 0
            else:
                stale += 1
        if not quiet:
            print(f"{line} ({time.perf_counter() - t0:.0f} s)", flush=True)
        if tune and stale >= o["patience"]:
            break
    if best is not None:
        nlp.from_bytes(best)
    return losses_by_epoch, tune_f


def _dev_scores(nlp: Any, dev: str) -> dict[str, float]:
    scores = nlp.evaluate(_examples(_documents(dev), nlp))
    return {"ents_p": round(float(scores["ents_p"]), 4), "ents_r": round(float(scores["ents_r"]), 4),
            "ents_f": round(float(scores["ents_f"]), 4)}


def train_ner(train: str, dev: str | None, output: str, iterations: int = 10, seed: int = 0,
              quiet: bool = False, limit: int | None = None, tune_every: int | None = None,
              **opts: Any) -> dict[str, Any]:
    """Train on ``train`` (CoNLL file or folder), keep the epoch best on the tuning split, save to ``output``.

    ``dev``: a CoNLL set scored once at the end (figures only). ``limit``: the first sentences only.
    ``tune_every``: 0 or 1 trains on everything for ``iterations`` epochs (no early stop)."""
    import spacy

    from .engine import build_tokenizer, load_rules

    o, tune_every = _options(opts, tune_every)
    if not Path(train).exists():
        raise InputError(f"{train}: no such file")
    if iterations < 1:
        raise InputError("--iterations must be at least 1")
    spacy.util.fix_random_seed(seed)
    nlp = build_tokenizer(load_rules("pt"))
    ner = nlp.add_pipe("ner", config=ner_config(o["width"], o["depth"], o["embed_size"], o["window"]))
    train_docs, tune_docs = split_tuning(_first_sentences(_documents(train), limit), tune_every)
    examples = _examples(train_docs, nlp)
    if not examples:
        raise InputError(f"{train}: no sentences")
    rng = random.Random(seed)
    upper = [_example(nlp, s, upper=True) for _, sents in train_docs for s in sents
             if s.gold and len(s.text.upper()) == len(s.text) and rng.random() < o["upper"]]
    tune = _examples(tune_docs, nlp)
    for ex in examples:
        for ent in ex.reference.ents:
            ner.add_label(ent.label_)
    optimizer = nlp.initialize(lambda: examples)
    t0 = time.perf_counter()
    losses, tune_f = _epochs(nlp, optimizer, examples + upper, tune, o, iterations, rng, quiet)
    save_clean(nlp, output, o)
    summary: dict[str, Any] = {"model": str(output), "labels": sorted(ner.labels), "sentences": len(examples),
                               "upper_cased_copies": len(upper), "tuning_sentences": len(tune),
                               "tuning_documents": [d for d, _ in tune_docs],
                               "losses": losses, "tuning_f1": tune_f, "options": o, "seed": seed,
                               "iterations": iterations, "epochs_run": len(losses),
                               "seconds": round(time.perf_counter() - t0, 1)}
    if dev:
        summary["dev"] = _dev_scores(nlp, dev)
    (Path(output) / "paranon-train.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary
