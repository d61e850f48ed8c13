"""A reviewer's decisions on a run, and what they decide on: the data behind ``paranon review`` and ``apply``.

* ``entity_table``: every entity of ``keys.sqlite`` with its forms on both sides, category, mentions,
  documents and rules, riskiest first (found only by a fall-back rule, one word, target side only, not
  carried to the target side);
* ``mentions_of``: one entity's mentions, each in its unit's anonymized text with that mention shown;
* ``candidate_misses``: spans the run left visible that look like names (capitalized words that are neither
  ordinary words nor places) or identifiers (digit-bearing tokens of identifier shape);
* ``Decisions``: ``OUTDIR/review.yaml``, a config file (``anonymize.allow``, ``allow_in_documents``,
  ``deny``, ``same_entity``, ``different_entities``) that a person can read, edit, undo entry by entry, and
  pass to ``paranon run --config``;
* ``apply``: the decisions added to the run's settings, recomputed where they reach (:mod:`paranon.apply`).

Everything here reads originals: it is for the reviewer's private page, never for a public output.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex
import yaml

from .anonymize.consistency import identifier_form
from .audit import form_key
from .errors import InputError
from .text import PLACEHOLDER, fold, phrase_key

REVIEW_FILE = "review.yaml"
CATEGORIES = ("PERSON", "ORGANIZATION", "ORGANIZATION_ADMIN", "ORGANIZATION_COMPANY", "ORGANIZATION_INSTITUTION",
              "ADDRESS", "NAMEID", "DATE")
# capitalized words, joined by name particles: "Bento Queiroga", "Maria da Silva", "BENTO QUEIROGA"
NAME_SPAN = regex.compile(r"(?<![\p{L}\d<_])\p{Lu}[\p{L}'’-]+(?:\s+(?:(?:da|de|do|das|dos|e|van|von)\s+)?"
                          r"\p{Lu}[\p{L}'’-]+)*")
WORD = regex.compile(r"[\p{L}'’-]+")
# a token with digits, letters and separators: 578657970, PX45580-1433, 1200-091
ID_SPAN = regex.compile(r"(?<![\p{L}\d])[\p{L}\d][\p{L}\d./-]*\d[\p{L}\d./-]*(?<![./-])")
ORDINARY_ZIPF = 3.0
VERY_COMMON_ZIPF = 4.5
# an amount, not an identifier: 1.250.000, 000.00, 12,345.67
AMOUNT = regex.compile(r"^\d{1,3}(?:[.,]\d{3})*(?:[.,]\d{1,2})?$")
MISSES_LISTED = 500
HEADER = ("# Decisions made in `paranon review` on {outdir}.\n"
          "# `paranon apply {outdir}` recomputes what they reach; `paranon run INPUT --config review.yaml` reuses them.\n"
          "# PRIVATE: the strings below are originals. Never publish this file.\n")


# -- decisions ----------------------------------------------------------------------------------

class _Forms(list):
    """One merge's or split's forms, written on one line: ``- [Rui Quaresma Bettencourt, Bettencourt]``."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Forms, lambda d, forms: d.represent_sequence("tag:yaml.org,2002:seq", forms, flow_style=True))


@dataclass
class Decisions:
    """``review.yaml``: strings that are not entities (everywhere or in one document), strings to mask with a
    category (a missed span, or an entity's new category), groups of forms that are one entity (a merge) and
    pairs of forms that are different entities (a split)."""

    allow: list[str] = field(default_factory=list)
    allow_in_documents: dict[str, list[str]] = field(default_factory=dict)
    deny: dict[str, list[str]] = field(default_factory=dict)
    same_entity: list[list[str]] = field(default_factory=list)
    different_entities: list[list[str]] = field(default_factory=list)

    @classmethod
    def load(cls, outdir: Path) -> Decisions:
        path = Path(outdir) / REVIEW_FILE
        if not path.exists():
            return cls()
        from .settings import load_settings

        a = load_settings(path).anonymize  # a hand-edited file is checked like any config file
        return cls(list(a.allow), {str(k): list(v) for k, v in a.allow_in_documents.items()},
                   {str(k): list(v) for k, v in a.deny.items()}, [list(g) for g in a.same_entity],
                   [list(g) for g in a.different_entities])

    def save(self, outdir: Path) -> None:
        path = Path(outdir) / REVIEW_FILE
        body = {"anonymize": {"allow": self.allow, "allow_in_documents": self.allow_in_documents, "deny": self.deny,
                              "same_entity": [_Forms(g) for g in self.same_entity],
                              "different_entities": [_Forms(g) for g in self.different_entities]}}
        tmp = path.with_name(f".{REVIEW_FILE}.part")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # originals: owner only
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(HEADER.format(outdir=outdir))
            yaml.dump(body, fh, Dumper=_Dumper, allow_unicode=True, sort_keys=False, default_flow_style=False)
        os.replace(tmp, path)

    def not_entity(self, text: str, doc: str | None = None) -> None:
        target = self.allow if doc is None else self.allow_in_documents.setdefault(doc, [])
        if text not in target:
            target.append(text)

    def mask(self, text: str, category: str) -> None:
        """Mask ``text`` wherever it appears, as ``category`` (a missed span, or an entity's new category)."""
        if category not in CATEGORIES:
            raise InputError(f"category {category!r} is not one of {', '.join(CATEGORIES)}")
        for cat, items in self.deny.items():
            if cat != category and text in items:
                items.remove(text)
        items = self.deny.setdefault(category, [])
        if text not in items:
            items.append(text)
        self.deny = {k: v for k, v in self.deny.items() if v}

    def merge(self, forms: list[str], other: list[str]) -> None:
        """The entity of ``forms`` and that of ``other`` are one (``same_entity``): one group with every form of
        both and of the groups they were in; a ``different_entities`` pair inside it is dropped."""
        group = list(dict.fromkeys([*forms, *other]))
        keys = {phrase_key(f) for f in group}
        kept = []
        for g in self.same_entity:
            if keys & {phrase_key(f) for f in g}:
                group += [f for f in g if phrase_key(f) not in {phrase_key(x) for x in group}]
            else:
                kept.append(g)
        keys = {phrase_key(f) for f in group}
        self.different_entities = [g for g in self.different_entities if len(keys & {phrase_key(f) for f in g}) < 2]
        self.same_entity = [*kept, group]

    def split(self, chosen: list[str], rest: list[str]) -> None:
        """The ``chosen`` forms of an entity are not the entity of its ``rest``: a ``different_entities`` pair
        for each (rest, chosen) two forms; the chosen forms leave a ``same_entity`` group holding the rest."""
        out = {phrase_key(f) for f in chosen}
        rest_keys = {phrase_key(f) for f in rest}
        groups = []
        for g in self.same_entity:
            if rest_keys & {phrase_key(f) for f in g}:
                g = [f for f in g if phrase_key(f) not in out]
            if len(g) >= 2:
                groups.append(g)
        self.same_entity = groups
        for r in rest:
            for c in chosen:
                if not any({phrase_key(r), phrase_key(c)} <= {phrase_key(f) for f in g}
                           for g in self.different_entities):
                    self.different_entities.append([r, c])

    def undo(self, kind: str, text: str, where: str = "") -> None:
        """Drop one decision: ``text`` (a list of forms as JSON for ``same_entity``, ``different_entities``),
        ``where`` (its document or category)."""
        if kind in ("same_entity", "different_entities"):
            groups = getattr(self, kind)
            try:
                forms = json.loads(text)
            except ValueError:
                return  # not a list this page wrote: nothing to undo
            if forms in groups:
                groups.remove(forms)
        elif kind == "allow" and text in self.allow:
            self.allow.remove(text)
        elif kind == "allow_in_documents" and text in self.allow_in_documents.get(where, []):
            self.allow_in_documents[where].remove(text)
        elif kind == "deny" and text in self.deny.get(where, []):
            self.deny[where].remove(text)
        self.allow_in_documents = {k: v for k, v in self.allow_in_documents.items() if v}
        self.deny = {k: v for k, v in self.deny.items() if v}

    def entries(self) -> list[dict[str, str]]:
        """Every decision, for the page: kind, where (document or category), text, in words."""
        out = [{"kind": "allow", "where": "", "text": t, "words": "not an entity, everywhere"} for t in self.allow]
        out += [{"kind": "allow_in_documents", "where": d, "text": t, "words": f"not an entity in document {d}"}
                for d, ts in self.allow_in_documents.items() for t in ts]
        out += [{"kind": "deny", "where": c, "text": t, "words": f"masked as {c}"} for c, ts in self.deny.items() for t in ts]
        for out_kind, words in (("same_entity", "one entity (merged): one number"),
                                ("different_entities", "different entities (split): never one number")):
            out += [{"kind": out_kind, "where": "", "text": " | ".join(g), "value": json.dumps(g, ensure_ascii=False),
                     "words": words} for g in getattr(self, out_kind)]
        for d in out:
            d.setdefault("value", d["text"])
        return out

    def overlay(self, cfg: dict[str, Any]) -> dict[str, Any]:
        """``cfg`` with the decisions added to its allow and deny lists."""
        a = cfg["anonymize"]
        a["allow"] = list(a["allow"]) + [t for t in self.allow if t not in a["allow"]]
        docs = {k: list(v) for k, v in a["allow_in_documents"].items()}
        for d, ts in self.allow_in_documents.items():
            docs.setdefault(d, []).extend(t for t in ts if t not in docs[d])
        a["allow_in_documents"] = docs
        deny = {k: list(v) for k, v in a["deny"].items()}
        for c, ts in self.deny.items():
            deny.setdefault(c, []).extend(t for t in ts if t not in deny[c])
        a["deny"] = deny
        for key in ("same_entity", "different_entities"):
            a[key] = [list(g) for g in a.get(key, [])]
            a[key] += [list(g) for g in getattr(self, key) if list(g) not in a[key]]
        return cfg


# -- what the reviewer sees ---------------------------------------------------------------------

def _keys(outdir: Path) -> sqlite3.Connection:
    keys = Path(outdir) / "keys.sqlite"
    if not keys.exists():
        raise InputError(f"{keys}: no key store; is {outdir} a paranon output folder?")
    return sqlite3.connect(f"file:{keys}?mode=ro", uri=True)


def _records(outdir: Path) -> Iterator[dict[str, Any]]:
    corpus = Path(outdir) / "corpus.jsonl"
    if not corpus.exists():
        raise InputError(f"{corpus}: not found; is {outdir} a paranon output folder?")
    with open(corpus, encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


def unit_documents(outdir: Path) -> dict[str, str]:
    return {r["id"]: r.get("doc", "") for r in _records(outdir)}


def _untransferred(outdir: Path) -> set[tuple[str, int]]:
    report = Path(outdir) / "report.json"
    if not report.exists():
        return set()
    units = json.loads(report.read_text(encoding="utf-8")).get("transfer", {}).get("untransferred_units", [])
    return {(u["id"], u["entity"]) for u in units}


def entity_table(outdir: Path) -> list[dict[str, Any]]:
    """Every entity (scope, number) with its forms per side, mentions, documents, rules and risk flags,
    riskiest first."""
    docs = unit_documents(outdir)
    untransferred = _untransferred(outdir)
    ents: dict[tuple[str, int], dict[str, Any]] = {}
    db = _keys(outdir)
    try:
        rows = db.execute("SELECT scope, number, category, subtype, side, original, recognizer, rule, unit "
                          "FROM mentions ORDER BY rowid")
        for scope, number, cat, sub, side, original, rec, rule, unit in rows:
            e = ents.get((scope, number))
            if e is None:
                e = ents[(scope, number)] = {"scope": scope, "number": number, "category": cat, "subtype": sub or "",
                                             "forms": {"src": Counter(), "tgt": Counter()}, "mentions": 0,
                                             "documents": set(), "rules": Counter(), "untransferred": False}
            e["forms"][side][original] += 1
            e["mentions"] += 1
            e["documents"].add(docs.get(unit, unit))
            if side == "src":
                e["rules"][f"{rec}:{rule}"] += 1
            elif rec == "transfer:target_only":
                e["rules"]["target-only"] += 1
            if (unit, number) in untransferred and side == "src":
                e["untransferred"] = True
    finally:
        db.close()
    out = []
    for e in ents.values():
        src_rules = [r for r in e["rules"] if r != "target-only"]
        e["fallback"] = bool(src_rules) and all(r.startswith("fallback") for r in src_rules)
        forms = e["forms"]["src"] or e["forms"]["tgt"]
        e["single_word"] = all(len(f.split()) == 1 for f in forms)
        e["target_only"] = not e["forms"]["src"]
        e["documents"] = len(e["documents"])
        e["label"] = e["category"] + (f"_{e['subtype']}" if e["subtype"] else "")
        out.append(e)
    out.sort(key=lambda e: (not e["fallback"], not e["single_word"], not e["target_only"], not e["untransferred"],
                            -e["mentions"]))
    return out


def mentions_of(outdir: Path, scope: str, number: int) -> list[dict[str, Any]]:
    """The entity's mentions: unit, document, side, and the unit's anonymized text around the mention with
    the original in place of its placeholder."""
    db = _keys(outdir)
    try:
        rows = list(db.execute("SELECT unit, side, start, end, original, recognizer, rule FROM mentions "
                               "WHERE scope = ? AND number = ? ORDER BY rowid", (scope, number)))
    finally:
        db.close()
    wanted = {r[0] for r in rows}
    recs = {r["id"]: r for r in _records(outdir) if r["id"] in wanted}
    out = []
    for unit, side, start, end, original, rec, rule in rows:
        r = recs.get(unit)
        if r is None:
            continue
        text = r[side]
        out.append({"unit": unit, "doc": r.get("doc", ""), "side": r.get(f"{side}_lang", side),
                    "before": text[max(0, start - 120):start], "original": original, "after": text[end:end + 120],
                    "rule": f"{rec}:{rule}"})
    return out


class _Words:
    """Ordinary words and places, to tell a name-like span from a heading or a place."""

    def __init__(self) -> None:
        from .anonymize.lexicons import Lexicons

        self.lex = Lexicons()
        self.known: dict[str, bool] = {}

    def ordinary(self, word: str) -> bool:
        """A word of the language that is not a first name ("the", "bank" and "contrato" are; "Maria" is not)."""
        f = fold(word)
        got = self.known.get(f)
        if got is None:
            from wordfreq import zipf_frequency

            zipf = max(zipf_frequency(f, "pt"), zipf_frequency(f, "en"))
            if f in self.lex.first:
                got = False
            elif zipf >= VERY_COMMON_ZIPF:
                got = True  # a name list may know it as a surname too (Price, Bank)
            else:
                got = f not in self.lex.last and (f in self.lex.common or zipf >= ORDINARY_ZIPF)
            self.known[f] = got
        return got

    def place(self, word: str) -> bool:
        return fold(word) in self.lex.places


def candidate_misses(outdir: Path, allow: set[str] | None = None, limit: int = MISSES_LISTED) -> list[dict[str, Any]]:
    """Visible spans that look like names, then those that look like identifiers (``limit`` of each), most
    frequent first: text, kind, count, documents, first units."""
    words = _Words()
    allow = {form_key(a) for a in (allow or set())}
    found: dict[tuple[str, str], dict[str, Any]] = {}

    for r in _records(outdir):
        for side in ("src", "tgt"):
            text = PLACEHOLDER.sub(lambda m: " " * len(m.group(0)), r[side])
            spans = []
            for m in NAME_SPAN.finditer(text):
                # ordinary words at either end are not part of the name: "ASSINADO POR BENTO QUEIROGA"
                named = [w for w in WORD.finditer(m.group(0))
                         if w.group(0)[:1].isupper() and not words.ordinary(w.group(0))]
                if all(words.place(w.group(0)) for w in named):
                    continue  # ordinary words and places only: "O Contrato", "Em Lisboa"
                span = m.group(0)[named[0].start():named[-1].end()]
                if form_key(span) not in allow:
                    spans.append((span, "name"))
            for m in ID_SPAN.finditer(text):
                if identifier_form(m.group(0)) and not AMOUNT.match(m.group(0)) and form_key(m.group(0)) not in allow:
                    spans.append((m.group(0), "identifier"))
            for span, kind in spans:
                key = (" ".join(span.split()), kind)
                c = found.setdefault(key, {"text": key[0], "kind": kind, "count": 0, "units": [], "docs": set()})
                c["count"] += 1
                c["docs"].add(r.get("doc", ""))
                if len(c["units"]) < 5 and r["id"] not in c["units"]:
                    c["units"].append(r["id"])
    ranked = sorted(found.values(), key=lambda c: (-c["count"], c["text"]))
    # each kind gets its share: law and regulation numbers (public) would crowd the names out
    out = [c for c in ranked if c["kind"] == "name"][:limit] + [c for c in ranked if c["kind"] == "identifier"][:limit]
    for c in out:
        c["documents"] = len(c.pop("docs"))
    return out


def unit_texts(outdir: Path, unit: str) -> dict[str, Any] | None:
    return next((r for r in _records(outdir) if r["id"] == unit), None)


# -- apply ----------------------------------------------------------------------------------------

def run_input(outdir: Path, given: str | None) -> Path:
    """The input the run read: ``given``, or the one its key store names (the report names no path)."""
    from .anonymize.keystore import run_input as stored_input

    keys = Path(outdir) / "keys.sqlite"
    if given:
        path = Path(given)
    else:
        if not keys.exists():
            raise InputError(f"{keys}: not found; pass --input")
        stored = stored_input(keys)
        if stored is None:
            raise InputError(f"{keys}: names no input (a run of an older paranon); pass --input")
        path = Path(stored)
    if not path.exists() and not any(path.parent.glob(path.name + ".*")):
        raise InputError(f"{path}: the run's input is not there (keys.sqlite names it); pass --input")
    return path


def apply(outdir: Path, cfg: dict[str, Any], input_path: str | None = None, quiet: bool = True) -> dict[str, Any]:
    """The run's outputs again with the review's decisions added to ``cfg``: recomputed from the run's
    checkpoint where the decisions reach (:mod:`paranon.apply`), else (no checkpoint, ``corpus`` scope, other
    settings) the whole run again from its input."""
    from .apply import apply_decisions
    from .pipeline import run

    outdir = Path(outdir)
    cfg = Decisions.load(outdir).overlay(cfg)
    report = apply_decisions(outdir, cfg, quiet=quiet)
    if report is not None:
        return report
    return run(run_input(outdir, input_path), outdir, cfg, quiet=quiet, restart=True)


def risk_words(e: dict[str, Any]) -> list[str]:
    return [w for w, flag in (("fall-back rule", e["fallback"]), ("one word", e["single_word"]),
                              ("target only", e["target_only"]), ("not transferred", e["untransferred"])) if flag]


def rule_names(table: list[dict[str, Any]]) -> list[str]:
    names: Counter = Counter()
    for e in table:
        names.update({r.split(":", 1)[0]: 1 for r in e["rules"]})
    return [n for n, _ in names.most_common()]
