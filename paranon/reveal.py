"""``paranon reveal OUTDIR --id UNIT``: one unit de-anonymized, and what each of its placeholders stands for.

Reads ``keys.sqlite`` (SECRET): for reviewers only; the output holds originals.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .anonymize.keystore import public_id, reveal
from .corpora.model import AnonymizedPair
from .errors import InputError


@dataclass
class Placeholder:
    """One placeholder of a unit on one side, and the original it replaced there."""

    text: str  # as it reads in the anonymized unit: <NAME3_PERSON>
    side: str  # language code
    category: str
    original: str
    recognizer: str
    rule: str


def find_unit(outdir: Path, unit: str) -> dict:
    """The record of ``unit`` in ``corpus.jsonl``."""
    corpus = outdir / "corpus.jsonl"
    if not corpus.exists():
        raise InputError(f"{corpus}: not found; is {outdir} a paranon output folder?")
    needle = json.dumps(unit, ensure_ascii=False)
    with open(corpus, encoding="utf-8") as fh:
        for line in fh:
            if needle in line or json.dumps(unit) in line:
                rec = json.loads(line)
                if rec.get("id") == unit:
                    return rec
    raise InputError(f"{corpus}: no unit with id {unit!r}")


def placeholders(keys: Path, rec: dict) -> list[Placeholder]:
    """Every placeholder of the unit, per side, in text order, with its original."""
    if not keys.exists():
        raise InputError(f"{keys}: no key store; originals cannot be shown")
    db = sqlite3.connect(f"file:{keys}?mode=ro", uri=True)
    try:
        rows = list(db.execute("SELECT side, start, end, category, subtype, original, recognizer, rule FROM mentions "
                               "WHERE unit = ? ORDER BY side = 'tgt', start", (rec["id"],)))
    finally:
        db.close()
    langs = {"src": rec.get("src_lang", "src"), "tgt": rec.get("tgt_lang", "tgt")}
    return [Placeholder(rec[side][start:end] or "(removed)", langs[side], category + (f"/{subtype}" if subtype else ""), original,
                        recognizer or "", rule or "")
            for side, start, end, category, subtype, original, recognizer, rule in rows]


def reveal_lines(outdir: str | Path, unit: str) -> list[str]:
    outdir = Path(outdir)
    keys = outdir / "keys.sqlite"
    opaque = public_id(keys, unit) if keys.exists() else None  # the id as the input had it -> its opaque id
    rec = find_unit(outdir, opaque or unit)
    found = placeholders(keys, rec)
    src, tgt = reveal(keys, AnonymizedPair.from_record(rec))
    out = [f"unit {rec['id']} (document {rec.get('doc', '')})",
           f"{rec.get('src_lang', 'src')}: {src}", f"{rec.get('tgt_lang', 'tgt')}: {tgt}"]
    if not found:
        out.append("no placeholders")
        return out
    width = max(len(p.text) for p in found)
    out.append("placeholders:")
    out += [f"  {p.text:<{width}}  {p.side}  {p.category:<22} {p.original}   [{p.recognizer} {p.rule}]".rstrip()
            for p in found]
    return out
