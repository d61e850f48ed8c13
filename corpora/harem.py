"""HAREM golden collections -> paranon gold documents (read in place, never copied into the project).

Both collections are ISO-8859-1. The First HAREM (``ColeccaoDouradaHAREM.txt``) is SGML-like: ``<DOC>``
with ``<DOCID>`` and ``<TEXTO>``, entities as ``<PESSOA TIPO="INDIVIDUAL">…</PESSOA>`` (the tag is the
category). The Second HAREM (``CDSegundoHAREMclassico.xml``) is XML: ``<DOC DOCID=…>``, ``<p>`` paragraphs,
entities as ``<EM CATEG="PESSOA" TIPO="INDIVIDUAL">``. Both have ``<ALT>a | b</ALT>`` (alternative
annotations of the same text) and ``<OMITIDO>`` (text left out of HAREM's own evaluation).

What is kept (scored), what paranon must hide:

* ``PESSOA`` with ``TIPO=INDIVIDUAL`` -> PERSON;
* ``ORGANIZACAO`` with ``TIPO=EMPRESA`` -> ORGANIZATION (COMPANY), ``ADMINISTRACAO`` -> ORGANIZATION (ADMIN),
  ``INSTITUICAO`` -> ORGANIZATION (INSTITUTION).

Ambiguous ``CATEG``/``TIPO`` (``A|B``): the alternatives are read pairwise when both lists have the same
length (``PESSOA|ORGANIZACAO`` with ``INDIVIDUAL|EMPRESA``), otherwise every category with every type; the
entity is kept if ANY alternative is kept (recall first: a reading under which the text names a person or
an organisation means it must be hidden), with the first kept alternative's category.

Every other entity (``LOCAL``, ``TEMPO``, ``PESSOA``/``CARGO``, ``ORGANIZACAO``/``SUB`` ...) is kept as a
non-scored annotation labelled ``CATEG/TIPO``, so that a leak can be set against what HAREM says the text is.

``ALT``: one alternative's text and annotation is used (the alternatives spell the same text); the one
whose scored entities cover the most characters, the first on a tie (so a text that any reading marks as a
name is scored as one). ``OMITIDO``: the text stays, its entities are not scored and its characters are
ignored (neither a miss nor an over-masking).

Policy option ``names_only`` (the ``harem-names`` format of ``paranon eval ner``, sets ``harem1-names`` and
``harem2-names``): HAREM's ``PESSOA``/``INDIVIDUAL`` spans include the title or role before a name
(``Professora X``, ``o Dr. X``), which paranon keeps visible. With ``names_only`` each such span is cut to the
name by the rule the tuning set is built with (``corpora/person_policy.py``: the leading titles, +HUM nouns
and words in lower case are left out), and a span that names no one (a role alone) is not scored (label
``PESSOA/INDIVIDUAL role``). The difference between the two readings' PERSON leaks is policy, not misses.

A HAREM document is one paranon document (the numbering and propagation scope); its segments are the
lines of the First HAREM's ``TEXTO`` and the ``<p>`` paragraphs of the Second HAREM, white space collapsed.

Run ``python -m paranon.corpora.harem FILE [-o OUT.jsonl]`` to see the conversion's counts (and write the
gold JSONL somewhere outside the project, if wanted).
"""

from __future__ import annotations

import argparse
import html
import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import regex

from ..errors import InputError
from ..text import tokenize
from .person_policy import name_start, roles_of

TAG = regex.compile(r"<(/?)([A-Za-z][A-Za-z|_]*)((?:\s+[A-Za-z_]+\s*=\s*\"[^\"]*\")*)\s*(/?)>")
ATTR = regex.compile(r"([A-Za-z_]+)\s*=\s*\"([^\"]*)\"")
SPACE = regex.compile(r"\s+")
H1_DOC = regex.compile(r"<DOC>(.*?)</DOC>", regex.S)
H1_DOCID = regex.compile(r"<DOCID>\s*(.*?)\s*</DOCID>", regex.S)
H1_TEXT = regex.compile(r"<TEXTO>(.*?)</TEXTO>", regex.S)
H2_DOC = regex.compile(r"<DOC\s+DOCID=\"([^\"]*)\"[^>]*>(.*?)</DOC>", regex.S)
H2_PARA = regex.compile(r"<p>(.*?)</p>", regex.S)

PERSON_TYPES = {"INDIVIDUAL": ""}
ORGANIZATION_TYPES = {"EMPRESA": "COMPANY", "ADMINISTRACAO": "ADMIN", "INSTITUICAO": "INSTITUTION"}
H1_CATEGORIES = {"PESSOA", "ORGANIZACAO", "LOCAL", "TEMPO", "VALOR", "ABSTRACCAO", "ACONTECIMENTO", "COISA",
                 "OBRA", "VARIADO", "OUTRO"}


@dataclass
class HaremEntity:
    start: int
    end: int
    category: str          # PERSON / ORGANIZATION when scored, else the HAREM label CATEG/TIPO
    subtype: str = ""
    scored: bool = False
    ambiguous: bool = False
    label: str = ""        # HAREM's own CATEG/TIPO (alternatives joined by |)
    cut: bool = False      # a PERSON span cut to the name (names_only)


@dataclass
class HaremSegment:
    text: str
    entities: list[HaremEntity] = field(default_factory=list)
    ignore: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class HaremDocument:
    doc: str
    segments: list[HaremSegment]


def classify(categ: str, tipo: str) -> tuple[str, str, bool] | None:
    """(category, subtype, ambiguous) when any reading of ``CATEG``/``TIPO`` is kept, else None."""
    cats = [c.strip() for c in categ.split("|") if c.strip()]
    tipos = [t.strip() for t in tipo.split("|") if t.strip()]
    ambiguous = len(set(cats)) > 1 or len(set(tipos)) > 1
    if len(cats) == len(tipos):
        readings = list(zip(cats, tipos, strict=True))
    else:
        readings = [(c, t) for c in cats for t in (tipos or [""])]
    for c, t in readings:
        if c == "PESSOA" and t in PERSON_TYPES:
            return "PERSON", PERSON_TYPES[t], ambiguous
        if c == "ORGANIZACAO" and t in ORGANIZATION_TYPES:
            return "ORGANIZATION", ORGANIZATION_TYPES[t], ambiguous
    return None


def _events(markup: str, unescape: bool) -> list[tuple]:
    """("text", s) | ("open", name, attrs) | ("close", name) over a stretch of markup."""
    out: list[tuple] = []
    pos = 0
    for m in TAG.finditer(markup):
        if m.start() > pos:
            t = markup[pos:m.start()]
            out.append(("text", html.unescape(t) if unescape else t))
        closing, name, attrs = m.group(1), m.group(2), dict(ATTR.findall(m.group(3) or ""))
        out.append(("close", name) if closing else ("open", name, attrs))
        pos = m.end()
    if pos < len(markup):
        t = markup[pos:]
        out.append(("text", html.unescape(t) if unescape else t))
    return out


def _entity_label(name: str, attrs: dict[str, str]) -> tuple[str, str]:
    """(CATEG, TIPO) of an entity tag of either collection."""
    if name == "EM":
        return attrs.get("CATEG", ""), attrs.get("TIPO", "")
    return name, attrs.get("TIPO", "")


def _is_entity(name: str) -> bool:
    return name == "EM" or all(part in H1_CATEGORIES for part in name.split("|"))


class _Builder:
    """Writes a segment's text with white space collapsed, keeping entity and ignore offsets."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.entities: list[HaremEntity] = []
        self.ignore: list[tuple[int, int]] = []

    def add(self, text: str) -> None:
        text = SPACE.sub(" ", text)
        if not text:
            return
        if text.startswith(" ") and (self.length == 0 or self.parts[-1].endswith(" ")):
            text = text[1:]
        if text:
            self.parts.append(text)
            self.length += len(text)

    def segment(self) -> HaremSegment:
        text = "".join(self.parts)
        stripped = text.rstrip()
        out = HaremSegment(stripped)
        for e in self.entities:
            s, t = e.start, min(e.end, len(stripped))
            while s < t and stripped[s] == " ":
                s += 1
            while t > s and stripped[t - 1] == " ":
                t -= 1
            if s < t:
                e.start, e.end = s, t
                out.entities.append(e)
        out.ignore = [(s, min(e, len(stripped))) for s, e in self.ignore if s < min(e, len(stripped))]
        return out


def _alternative_weight(events: list[tuple]) -> int:
    """Characters inside scored entities in one ALT alternative."""
    weight, stack = 0, []
    for ev in events:
        if ev[0] == "open" and _is_entity(ev[1]):
            stack.append(classify(*_entity_label(ev[1], ev[2])) is not None)
        elif ev[0] == "close" and _is_entity(ev[1]) and stack:
            stack.pop()
        elif ev[0] == "text" and any(stack):
            weight += len(SPACE.sub(" ", ev[1]).strip())
    return weight


def _resolve_alternatives(events: list[tuple]) -> list[tuple]:
    """Replace every ``<ALT>a | b</ALT>`` by the events of the chosen alternative."""
    out: list[tuple] = []
    k = 0
    while k < len(events):
        ev = events[k]
        if not (ev[0] == "open" and ev[1] == "ALT"):
            if not (ev[0] == "close" and ev[1] == "ALT"):
                out.append(ev)
            k += 1
            continue
        alts: list[list[tuple]] = [[]]
        depth = 0
        k += 1
        while k < len(events) and not (events[k][0] == "close" and events[k][1] == "ALT"):
            e = events[k]
            if e[0] == "open" and _is_entity(e[1]):
                depth += 1
            elif e[0] == "close" and _is_entity(e[1]):
                depth -= 1
            if e[0] == "text" and depth == 0 and "|" in e[1]:
                pieces = e[1].split("|")
                for n, piece in enumerate(pieces):
                    if n:
                        alts.append([])
                    if piece:
                        alts[-1].append(("text", piece))
            else:
                alts[-1].append(e)
            k += 1
        k += 1  # </ALT>
        weights = [_alternative_weight(a) for a in alts]
        out += alts[weights.index(max(weights))]
    return out


def _segments(markup: str, unescape: bool, split_lines: bool) -> list[HaremSegment]:
    """The segments of a stretch of markup: one, or one per line outside any entity (``split_lines``)."""
    out: list[HaremSegment] = []
    b = _Builder()
    stack: list[HaremEntity] = []
    omit_start: list[int] = []
    for ev in _resolve_alternatives(_events(markup, unescape)):
        if ev[0] == "text":
            lines = ev[1].split("\n") if split_lines else [ev[1]]
            for n, piece in enumerate(lines):
                if n and not stack and not omit_start:
                    out.append(b.segment())
                    b = _Builder()
                elif n:
                    b.add(" ")
                b.add(piece)
        elif ev[0] == "open" and ev[1] == "OMITIDO":
            omit_start.append(b.length)
        elif ev[0] == "close" and ev[1] == "OMITIDO" and omit_start:
            b.ignore.append((omit_start.pop(), b.length))
        elif ev[0] == "open" and _is_entity(ev[1]):
            categ, tipo = _entity_label(ev[1], ev[2])
            kept = classify(categ, tipo)
            label = f"{categ}/{tipo}" if tipo else categ
            if kept and not omit_start:
                stack.append(HaremEntity(b.length, b.length, kept[0], kept[1], True, kept[2], label))
            else:
                stack.append(HaremEntity(b.length, b.length, label, "", False, False, label))
        elif ev[0] == "close" and _is_entity(ev[1]) and stack:
            e = stack.pop()
            e.end = b.length
            b.entities.append(e)
    out.append(b.segment())
    return [s for s in out if s.text]


def _h1_documents(raw: str, path: Path) -> Iterator[HaremDocument]:
    for no, m in enumerate(H1_DOC.finditer(raw), 1):
        did, body = H1_DOCID.search(m.group(1)), H1_TEXT.search(m.group(1))
        if not did or not body:
            line = raw.count("\n", 0, m.start()) + 1
            raise InputError(f"{path}:{line}: HAREM document {no} has no DOCID or TEXTO")
        yield HaremDocument(did.group(1), _segments(body.group(1), unescape=False, split_lines=True))


def _h2_documents(raw: str, path: Path) -> Iterator[HaremDocument]:
    for m in H2_DOC.finditer(raw):
        segs = [s for p in H2_PARA.finditer(m.group(2)) for s in _segments(p.group(1), True, False)]
        yield HaremDocument(m.group(1), segs)


def cut_to_names(docs: list[HaremDocument], roles: frozenset[str]) -> None:
    """paranon's person policy on the scored PERSON spans (see the module's docstring), in place."""
    for d in docs:
        for s in d.segments:
            for e in s.entities:
                if not (e.scored and e.category == "PERSON"):
                    continue
                spans = tokenize(s.text[e.start:e.end])
                k = name_start([s.text[e.start + a:e.start + b] for a, b in spans], roles)
                if k is None:
                    e.scored, e.category, e.label = False, f"{e.label} role", f"{e.label} role"
                elif k:
                    e.start += spans[k][0]
                    e.cut = True


def read_harem(path: str | Path, names_only: bool = False) -> list[HaremDocument]:
    """The documents of a HAREM golden collection (a file, or a folder holding one); ``names_only``: PERSON
    spans cut to the name (paranon's policy, see the module's docstring)."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".txt", ".xml"))
        if len(files) != 1:
            raise InputError(f"{path}: expected one HAREM collection (.txt or .xml), found {len(files)}")
        path = files[0]
    if not path.exists():
        raise InputError(f"{path}: no such file")
    raw = path.read_bytes().decode("iso-8859-1")
    if "<colHAREM" in raw[:2000]:
        docs = list(_h2_documents(raw, path))
    elif "<DOC>" in raw[:2000]:
        docs = list(_h1_documents(raw, path))
    else:
        raise InputError(f"{path}: neither a First HAREM (<DOC>) nor a Second HAREM (<colHAREM>) collection")
    if not docs:
        raise InputError(f"{path}: no HAREM documents")
    if names_only:
        cut_to_names(docs, roles_of())
    return docs


def is_harem(path: str | Path) -> bool:
    """True for a file (or a folder with one file) that looks like a HAREM collection."""
    path = Path(path)
    if path.is_dir():
        files = [p for p in path.iterdir() if p.suffix.lower() in (".txt", ".xml")]
        if len(files) != 1:
            return False
        path = files[0]
    if not path.is_file():
        return False
    with open(path, "rb") as fh:
        head = fh.read(2000).decode("iso-8859-1")
    return "<colHAREM" in head or head.lstrip().startswith("<DOC>")


def to_records(docs: list[HaremDocument]) -> Iterator[dict]:
    """Gold JSONL records (docs/formats.md) with the non-scored annotations under ``src_notes``."""
    for d in docs:
        for k, s in enumerate(d.segments, 1):
            yield {"id": f"{d.doc}:{k}", "doc": d.doc, "src": s.text, "tgt": "",
                   "src_entities": [{"start": e.start, "end": e.end, "category": e.category,
                                     "entity": f"{d.doc}:{k}:{e.start}",
                                     **({"subtype": e.subtype} if e.subtype else {}),
                                     "harem": e.label, **({"ambiguous": True} if e.ambiguous else {})}
                                    for e in s.entities if e.scored],
                   "src_notes": [{"start": e.start, "end": e.end, "label": e.label}
                                 for e in s.entities if not e.scored],
                   "src_ignore": [list(x) for x in s.ignore]}


def counts(docs: list[HaremDocument]) -> dict:
    """Figures only: documents, segments, scored entities per category/subtype, ambiguous ones kept."""
    c: Counter = Counter()
    for d in docs:
        for s in d.segments:
            c["segments"] += 1
            c["ignored_spans"] += len(s.ignore)
            for e in s.entities:
                if e.scored:
                    c[f"scored {e.category}{'/' + e.subtype if e.subtype else ''}"] += 1
                    c["scored ambiguous (kept on one reading)"] += e.ambiguous
                    c["person cut to the name"] += e.cut
                else:
                    c["not scored"] += 1
                    c["person role alone (not scored)"] += e.label.endswith(" role")
    return {"documents": len(docs), **dict(sorted(c.items()))}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m paranon.corpora.harem", description=__doc__.split("\n")[0])
    p.add_argument("collection", help="ColeccaoDouradaHAREM.txt or CDSegundoHAREMclassico.xml (or its folder)")
    p.add_argument("-o", "--output", help="write the gold JSONL here (keep it out of the project)")
    p.add_argument("--names-only", action="store_true", help="PERSON spans cut to the name (paranon's policy)")
    args = p.parse_args(argv)
    try:
        docs = read_harem(args.collection, args.names_only)
    except InputError as exc:
        print(f"harem: error: {exc}", file=sys.stderr)
        return 2
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            for rec in to_records(docs):
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(json.dumps(counts(docs), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
