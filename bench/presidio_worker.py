"""The Presidio side of ``bench/presidio_compare.py``; runs in Presidio's own environment, not paranon's.

``python bench/presidio_worker.py SEGMENTS.txt`` (one Portuguese segment per line) anonymizes every line
with Presidio's AnalyzerEngine + AnonymizerEngine, configured with pattern recognizers for NAMEID and
DATE on a blank Portuguese spaCy pipeline (no model can be downloaded here), and prints one JSON object:
seconds (best of ``--repeat``), segments, entities found.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

import spacy
from presidio_analyzer import AnalyzerEngine, Pattern, PatternRecognizer, RecognizerRegistry
from presidio_analyzer.nlp_engine import NlpEngineProvider
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import OperatorConfig

MONTHS = "janeiro|fevereiro|março|marco|abril|maio|junho|julho|agosto|setembro|outubro|novembro|dezembro"
NAMEID_PATTERNS = [
    ("email", r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", 0.9),
    ("url", r"(?:https?://|www\.)[^\s<>\"]+[^\s<>\".,;:!?)\]]", 0.8),
    ("iban", r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b", 0.7),
    ("phone_intl", r"(?<![\w+])(?:\+|00)\d{1,3}[\s.-]?\d{1,4}(?:[\s.-]?\d{2,4}){2,5}\b", 0.6),
    ("phone_pt", r"(?<![\d.,/-])[29]\d{2}[ .]\d{3}[ .]\d{3}(?![\d,/-])", 0.6),
    ("nif", r"(?<![\d.,/-])[1235689]\d{2}[ .]?\d{3}[ .]?\d{3}(?![\d,/-])", 0.5),
    ("trigger_number", r"(?i)(?:NIF|NIPC|contribuinte|telefone|tel\.|fax|passaporte|n\.º|nº)\s*:?\s*[\w./-]*\d[\w./-]*", 0.6),
    ("postcode", r"\b\d{4}-\d{3}\b", 0.5),
]
DATE_PATTERNS = [
    ("date_long", rf"(?i)\b\d{{1,2}}(?:\.º)?\s+de\s+(?:{MONTHS})(?:\s+de\s+\d{{4}})?", 0.8),
    ("date_numeric", r"\b\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})\b", 0.7),
    ("date_iso", r"\b\d{4}-\d{2}-\d{2}\b", 0.8),
]


def engines() -> tuple[AnalyzerEngine, AnonymizerEngine]:
    model_dir = tempfile.mkdtemp(prefix="presidio-pt-")
    spacy.blank("pt").to_disk(model_dir)
    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy", "models": [{"lang_code": "pt", "model_name": model_dir}]}).create_engine()
    registry = RecognizerRegistry(supported_languages=["pt"])
    for entity, patterns in (("NAMEID", NAMEID_PATTERNS), ("DATE", DATE_PATTERNS)):
        registry.add_recognizer(PatternRecognizer(
            supported_entity=entity, supported_language="pt",
            patterns=[Pattern(name, regex, score) for name, regex, score in patterns]))
    return AnalyzerEngine(nlp_engine=nlp, registry=registry, supported_languages=["pt"]), AnonymizerEngine()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("segments")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with open(args.segments, encoding="utf-8") as fh:
        texts = [line.rstrip("\n") for line in fh]
    analyzer, anonymizer = engines()
    ops = {"DEFAULT": OperatorConfig("replace", {"new_value": "<NAMEID>"}),
           "DATE": OperatorConfig("replace", {"new_value": "<DATE>"})}
    best, found = float("inf"), 0
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        found = 0
        for text in texts:
            results = analyzer.analyze(text=text, language="pt", entities=["NAMEID", "DATE"])
            anonymizer.anonymize(text=text, analyzer_results=results, operators=ops)
            found += len(results)
        best = min(best, time.perf_counter() - t0)
    print(json.dumps({"seconds": round(best, 3), "segments": len(texts), "entities": found}))


if __name__ == "__main__":
    main()
