"""Before a run: do ``--src``/``--tgt`` name a language (or column) the input has?

A language the input does not have would otherwise make every unit "missing a side" (TMX) or read another
column than the one asked for (TSV). ``check_languages`` looks at the head of each input file (the first
``HEAD_UNITS`` units: a TM's languages are the same throughout) and raises ``InputError`` naming the file,
the language asked for and the languages or columns it has.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from lxml import etree

from .corpora.formats import detect_format
from .corpora.formats.common import lang_matches
from .errors import InputError
from .settings import Settings

HEAD_UNITS = 200
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
GENERIC_COLUMNS = {"src": ("src", "source", "source_text"), "tgt": ("tgt", "target", "target_text")}


def _tmx_languages(path: Path) -> Counter:
    seen: Counter = Counter()
    n = 0
    try:
        for _, tuv in etree.iterparse(str(path), events=("end",), tag=("{*}tuv", "tuv"), huge_tree=True,
                                      resolve_entities=False, no_network=True, load_dtd=False):
            seen[tuv.get(XML_LANG) or tuv.get("lang") or ""] += 1
            tuv.clear()
            n += 1
            if n >= 2 * HEAD_UNITS:
                break
    except (etree.XMLSyntaxError, UnicodeDecodeError, LookupError):
        pass  # the reader reports a malformed or badly encoded file with its line
    return seen


def _jsonl_languages(path: Path) -> Counter:
    seen: Counter = Counter()
    with open(path, encoding="utf-8", errors="replace") as fh:
        for k, line in enumerate(fh):
            if k >= HEAD_UNITS:
                break
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict):
                for key in ("src_lang", "tgt_lang"):
                    if isinstance(rec.get(key), str):
                        seen[rec[key]] += 1
    return seen


def _languages_error(path: Path, wanted: dict[str, str], seen: Counter, what: str) -> None:
    missing = [f"--{side} {lang}" for side, lang in wanted.items() if not any(lang_matches(c, lang) for c in seen)]
    if seen and missing:
        have = ", ".join(c or "(none)" for c, _ in seen.most_common(8))
        raise InputError(f"{path}: {' and '.join(missing)}: no such {what} in the first {HEAD_UNITS} units "
                         f"(it has: {have})")


def _tsv_columns(path: Path, wanted: dict[str, str], cols: dict[str, Any]) -> None:
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        header = fh.readline().rstrip("\r\n").split("\t")
    lowered = [h.strip().lower() for h in header]
    missing = [f"--{side} {lang}" for side, lang in wanted.items()
               if cols.get(side) is None and lang.lower() not in lowered
               and not any(g in lowered for g in GENERIC_COLUMNS[side])]
    if header != [""] and missing:
        raise InputError(f"{path}:1: {' and '.join(missing)}: no column of that name (header: {', '.join(header)}); "
                         f"name the columns with --src-col/--tgt-col")


def check_languages(input_path: str | Path, cfg: dict[str, Any]) -> None:
    """Raise ``InputError`` when the input has no side in ``cfg['src']`` or ``cfg['tgt']``."""
    path = Path(input_path)
    inp = Settings.of(cfg).input
    wanted = {"src": str(cfg["src"]), "tgt": str(cfg["tgt"])}
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".tmx", ".tsv", ".jsonl"))
    else:
        files = [path]
    for f in files:
        fmt = inp.format if not path.is_dir() else None
        try:
            fmt = fmt or detect_format(f, wanted["src"], wanted["tgt"])
        except InputError:
            return _moses_sides(f, wanted)
        if fmt == "moses":
            _moses_sides(f, wanted)
        elif not f.exists():
            return  # the reader says "no such file"
        elif fmt == "tmx":
            _languages_error(f, wanted, _tmx_languages(f), "language")
        elif fmt == "jsonl":
            _languages_error(f, wanted, _jsonl_languages(f), "src_lang/tgt_lang")
        elif fmt == "tsv":
            _tsv_columns(f, wanted, {"src": inp.src_col, "tgt": inp.tgt_col})


def _moses_sides(prefix: Path, wanted: dict[str, str]) -> None:
    """A Moses prefix needs PREFIX.SRC and PREFIX.TGT; name the files it has when one is missing."""
    base = prefix.with_suffix("") if prefix.suffix.lstrip(".") in wanted.values() else prefix
    missing = [(side, lang) for side, lang in wanted.items() if not Path(f"{base}.{lang}").exists()]
    have = sorted(p.name for p in base.parent.glob(f"{base.name}.*")) if base.parent.exists() else []
    if missing and have:
        raise InputError(f"{base}: " + " and ".join(f"--{side} {lang}: no file {base.name}.{lang}"
                                                    for side, lang in missing) + f" (there are: {', '.join(have)})")
