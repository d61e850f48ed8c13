"""The labels of a court record's header and parts (``record_labels``: Documento, Recorrente, Habeas, Ementa ...).

A header's lines run on in a flattened record: "Supremo Tribunal Federal Documento assinado digitalmente",
"MARCO AURÉLIO REQTE.(S)", "PRIMEIRA TURMA HABEAS CORPUS". A label after a name is never the name's end: a
person's or organisation's mention ends before it. A label that completes a head noun ("Sociedade de Advogados",
"Tribunal de Recursos e Apelação") is part of the name and stays.
"""

from __future__ import annotations

from dataclasses import replace

import regex

from .recognizer import alternation

CATEGORIES = ("PERSON", "ORGANIZATION")


class RecordLabels:
    def __init__(self, labels: list[str]) -> None:
        words = alternation(labels) if labels else "(?!)"
        # (not a head's complement: a label right after "de", "e", "&" belongs to the name)
        self.tail = regex.compile(rf"(?<!(?<![\p{{L}}])(?i:d[aeo]s?|e|&|em|para))\s+(?i:{words})(?![\p{{L}}\d]).*$")
        self.gate = regex.compile(rf"(?i:{words})")

    def trimmed(self, mentions: list) -> list:
        """The mentions, each person and organisation without the labels after its name."""
        out = []
        for m in mentions:
            cut = self.tail.search(m.text) if m.category in CATEGORIES and self.gate.search(m.text) else None
            if cut and cut.start() > 0:
                m = replace(m, end=m.start + cut.start(), text=m.text[:cut.start()])
            out.append(m)
        return out
