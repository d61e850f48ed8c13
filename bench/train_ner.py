"""Recipe of paranon's shipped NER model: ``python bench/train_ner.py [--out DIR] [--iterations N]``.

Trains ``paranon train ner`` on LeNER-Br train (MIT licence; every 10th document of it is the tuning split
that stops training, LeNER-Br dev is never read) and writes the model folder with a README naming its
training data and licence. By default it writes ``anonymize/models/pt_legal_ner`` (packaged once built; not in git);
``--out`` writes elsewhere. Only sources whose licence allows redistribution of a derived model may be
listed in ``SOURCES``: HAREM and Paramopama (``../shared/data/pt-ner-harem-paramopama/SOURCE.md``: no
licence found) are not, and HAREM I and II are test sets besides.

The string store of the saved model holds no word of the training text (``anonymize.train.save_clean``).
Takes ~10-20 minutes of one CPU core.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "anonymize" / "models" / "pt_legal_ner"
# name, path (relative to the project folder, read from ../shared/data), licence file, citation
SOURCES = [("LeNER-Br train", "../shared/data/lener-br/train", "../shared/data/lener-br/LICENSE",
            "Luz de Araujo et al., LeNER-Br: a Dataset for Named Entity Recognition in Brazilian Legal Text, "
            "PROPOR 2018")]
SETTINGS = {"iterations": 10, "seed": 0, "width": 64, "depth": 2, "embed_size": 3000, "upper": 0.15,
            "patience": 2, "tune_every": 10}
LICENCE_LINE = "Licence: MIT (model trained on LeNER-Br, MIT, Copyright (c) 2022 Pedro Henrique Luz de Araujo)"


def readme(summary: dict) -> str:
    name, path, _, cite = SOURCES[0]
    f1 = ", ".join(f"{x:.3f}" for x in summary["tuning_f1"])
    return f"""# pt_legal_ner

A small spaCy NER (blank Portuguese pipeline with paranon's tokenizer, hash-embedding CNN tok2vec on the
lower-cased form, prefix, suffix and word shape; no pretrained vectors) used by paranon's `statistical`
recognizer: `anonymize: {{models: [pt_legal_ner]}}`. Labels: {", ".join(summary["labels"])}; paranon
maps PESSOA to PERSON and ORGANIZACAO to ORGANIZATION and ignores the others.

{LICENCE_LINE}. The licence text is in `LICENSE`.

Training data: {name} (`{path}`), {summary["sentences"]} sentences plus {summary["upper_cased_copies"]}
upper-cased copies; tuning split (early stop): {summary["tuning_sentences"]} sentences of the same
train set ({len(summary["tuning_documents"])} documents). Cite: {cite}.
Tuning F1 (spaCy, all labels) by epoch: {f1}; the model is the best epoch
({summary["tuning_f1"].index(max(summary["tuning_f1"])) + 1}). Training: {summary["seconds"]} s.

Rebuild: `python bench/train_ner.py --iterations {summary["iterations"]}` (the recipe; settings in
`paranon-train.json`; spaCy's training is seeded, but the result may differ slightly between machines).
"""


def main(argv: list[str] | None = None) -> int:
    from paranon.anonymize.train import train_ner

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=SHIPPED, help=f"model folder (default: {SHIPPED.relative_to(ROOT)})")
    p.add_argument("--iterations", type=int, default=SETTINGS["iterations"])
    args = p.parse_args(argv)
    name, path, licence, _ = SOURCES[0]
    if not (ROOT / path).exists():
        print(f"{path}: absent ({name} is read from ../shared/data)", file=sys.stderr)
        return 2
    settings = {**SETTINGS, "iterations": args.iterations}
    summary = train_ner(str(ROOT / path), None, str(args.out), **settings)
    summary["iterations"] = args.iterations
    summary["model"] = args.out.name
    summary["training_data"] = [{"name": n, "path": p_, "citation": c} for n, p_, _, c in SOURCES]
    (args.out / "paranon-train.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    (args.out / "LICENSE").write_text((ROOT / licence).read_text(encoding="utf-8"), encoding="utf-8")
    (args.out / "README.md").write_text(readme(summary), encoding="utf-8")
    print(json.dumps({k: summary[k] for k in ("labels", "sentences", "tuning_f1", "seconds")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
