"""Statistical NER as one more recognizer: any spaCy pipeline (a user's ``pt_core_news_lg`` or one made by
``paranon train ner``), listed in ``anonymize.models`` with a map from its labels to paranon's categories.

Its mentions join the rule mentions by union (recall first): where a rule already found an overlapping
mention the earlier recognizer keeps it (the order in ``anonymize.recognizers`` is the vote); elsewhere the
model's label, mapped, is the category. Labels not in the map are ignored.

A model shipped inside paranon (``anonymize/models/<name>/``, e.g. ``pt_legal_ner`` made by
``bench/train_ner.py``) is named by its folder name alone and loads offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..recognizer import Recognizer, Segment, register

BATCH = 256  # segments per nlp.pipe batch
SHIPPED = Path(__file__).resolve().parent.parent / "models"  # paranon's own models, one folder each
OWN_MODELS = ("pt_legal_ner",)  # built by bench/train_ner.py (not in git: a model is data)


def model_path(name: str) -> str:
    """A shipped model's folder for its bare name; any other name or path unchanged (spaCy resolves it)."""
    own = SHIPPED / name
    if "/" not in name and "\\" not in name and (own / "config.cfg").is_file():
        return str(own)
    return name


@register("statistical")
class StatisticalRecognizer(Recognizer):
    assigns = ("PERSON", "ORGANIZATION", "ADDRESS", "DATE", "NAMEID")
    settings = ("models",)

    @classmethod
    def build(cls, rules: dict, lex: Any, options: dict) -> list[Recognizer]:
        """One recognizer per model in ``anonymize.models`` (none: the entry adds nothing)."""
        return [cls(rules, lex, {"model": spec}) for spec in options.get("models") or []]

    def __init__(self, rules: dict, lex: Any, options: dict) -> None:
        super().__init__(rules, lex, {})
        import spacy

        spec = options["model"]
        spec = {"model": spec} if isinstance(spec, str) else dict(spec)
        if "model" not in spec:
            raise ValueError("anonymize.models: each entry needs a 'model' (name or folder)")
        try:
            self.nlp = spacy.load(model_path(str(spec["model"])), exclude=["parser", "tagger", "lemmatizer", "attribute_ruler"])
        except OSError as exc:
            name = str(spec["model"])
            if name in OWN_MODELS:  # paranon's own, named before it was built
                raise ValueError(f"anonymize.models: {name!r} is not built here; build it with "
                                 f"`python bench/train_ner.py` (it reads LeNER-Br from ../shared/data)") from None
            raise ValueError(f"anonymize.models: cannot load spaCy model {spec['model']!r}: {exc}") from None
        except Exception as exc:
            if "torch" not in str(exc).lower():
                raise
            raise ValueError(f"anonymize.models: {spec['model']!r} runs on torch, which paranon hides from spaCy "
                             "for a faster start: set PARANON_THINC_TORCH=1 to load it") from None
        if "ner" not in self.nlp.pipe_names:
            raise ValueError(f"anonymize.models: {spec['model']!r} has no 'ner' component")
        self.labels = dict(spec.get("labels") or {"PESSOA": "PERSON", "ORGANIZACAO": "ORGANIZATION",
                                                   "PER": "PERSON", "ORG": "ORGANIZATION"})
        self.model_name = str(spec["model"])
        self._ready: dict[str, list[tuple[int, int, str]]] = {}

    def prepare(self, texts: list[str]) -> None:
        """Run the model on a whole document's segments at once (``nlp.pipe`` batches them: ~2.7 times
        faster than one call per segment); ``find`` then reads the entities of a prepared text."""
        self._ready = {t: [(e.start_char, e.end_char, e.label_) for e in doc.ents]
                       for t, doc in zip(texts, self.nlp.pipe(texts, batch_size=BATCH), strict=True)}

    def find(self, seg: Segment) -> list:
        out = []
        ready = self._ready.get(seg.text)
        if ready is None:
            ready = [(e.start_char, e.end_char, e.label_) for e in self.nlp(seg.text).ents]
        for start, end, label in ready:
            cat = self.labels.get(label)
            if cat:
                out.append(self.mention(seg, start, end, cat, f"model:{label}", score=0.7))
        return out
