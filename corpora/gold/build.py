"""Build the hand-written PT-EN gold set from its marked-up sources (standard library only).

Sources: ``src/<genre>/<NN-slug>.txt``, one document per file, one sentence pair per line::

    PT text ||| EN text
    PT text ||| EN text %% drop P2

An entity is ``[[ID:CATEGORY[:SUBTYPE][:public]|surface text]]`` at its first mention in the document
and ``[[ID|surface text]]`` afterwards (the category is inherited); ``ID`` is shared by every mention
of the same real-world entity on both sides. ``%% drop ID ...`` at the end of a line declares the ids
that appear on only one side of that pair (the translation truly drops or adds the mention). Lines
starting with ``#`` and blank lines are ignored. See GUIDELINES.md for what is marked.

Usage::

    python corpora/gold/build.py            # writes contracts_tune/test/extra/extra2/extra3.jsonl
    python corpora/gold/build.py --check    # exit 1 when the committed files are not up to date
    python corpora/gold/build.py --stats    # pairs per genre and half, mentions per category

Documents alternate between the halves within each genre: odd-numbered files (01-, 03-) are the tuning
half, even-numbered ones (02-, 04-) the test half. The documents of ``extra/<genre>/`` (a second
tuning set, written later and apart) all go to contracts_extra.jsonl, with no split; those of
``extra2/<genre>/`` (a third tuning set, written later still) all go to contracts_extra2.jsonl, and those of
``extra3/<genre>/`` (a fourth, dense in addresses and identifiers) to contracts_extra3.jsonl.
Any markup error stops the build with one line naming the file and line (exit 2).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC_DIR = HERE / "src"
EXTRA_DIR = HERE / "extra"
EXTRA2_DIR = HERE / "extra2"
EXTRA3_DIR = HERE / "extra3"
HALVES = {"tune": HERE / "contracts_tune.jsonl", "test": HERE / "contracts_test.jsonl",
          "extra": HERE / "contracts_extra.jsonl", "extra2": HERE / "contracts_extra2.jsonl",
          "extra3": HERE / "contracts_extra3.jsonl"}

CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE")
SUBTYPES = ("ADMIN", "COMPANY", "INSTITUTION")
PAIR_SEPARATOR = " ||| "
DROP_MARK = " %% drop "
ENTITY_TAG = re.compile(r"\[\[([^\[\]|]*)\|([^\[\]|]*)\]\]")
ENTITY_ID = re.compile(r"[A-Za-z][A-Za-z0-9]*")
DOC_NUMBER = re.compile(r"(\d+)-")
STRAY_MARKUP = re.compile(r"\[\[|\]\]|\|")
# A span may end with a dot ("Lda.", "S.A.") but never with other punctuation or space.
BAD_SPAN_EDGE = re.compile(r"^[\s,;:.!?)\]»\"']|[\s,;:!?(\[«\"]$")


class GoldSourceError(ValueError):
    """A markup error; the message names the file and line."""


def _parse_head(head: str, where: str) -> tuple[str, dict | None]:
    """``ID[:CATEGORY[:SUBTYPE][:public]]`` -> (id, definition or None)."""
    parts = head.split(":")
    eid = parts[0]
    if not ENTITY_ID.fullmatch(eid):
        raise GoldSourceError(f"{where}: bad entity id {eid!r} in [[{head}|...]]")
    if len(parts) == 1:
        return eid, None
    category, rest = parts[1], parts[2:]
    if category not in CATEGORIES:
        raise GoldSourceError(f"{where}: unknown category {category!r} for {eid}")
    definition: dict = {"category": category}
    for token in rest:
        if token == "public":
            definition["public"] = True
        elif token in SUBTYPES and category == "ORGANIZATION" and "subtype" not in definition:
            definition["subtype"] = token
        else:
            raise GoldSourceError(f"{where}: unexpected {token!r} in the head of {eid}")
    if category == "ORGANIZATION" and "subtype" not in definition:
        raise GoldSourceError(f"{where}: ORGANIZATION {eid} needs a subtype ({', '.join(SUBTYPES)})")
    return eid, definition


def parse_side(marked: str, where: str) -> tuple[str, list[tuple[int, int, str, dict | None]]]:
    """Plain text and its mentions (start, end, id, definition-or-None) from one marked-up side."""
    out: list[str] = []
    mentions = []
    pos = 0
    length = 0
    for m in ENTITY_TAG.finditer(marked):
        before = marked[pos:m.start()]
        if STRAY_MARKUP.search(before):
            raise GoldSourceError(f"{where}: unbalanced markup before {m.group(0)!r}")
        out.append(before)
        length += len(before)
        eid, definition = _parse_head(m.group(1), where)
        surface = m.group(2)
        if not surface or BAD_SPAN_EDGE.search(surface):
            raise GoldSourceError(f"{where}: span of {eid} has space or punctuation at an edge: {surface!r}")
        mentions.append((length, length + len(surface), eid, definition))
        out.append(surface)
        length += len(surface)
        pos = m.end()
    tail = marked[pos:]
    if STRAY_MARKUP.search(tail):
        raise GoldSourceError(f"{where}: unbalanced markup in {tail.strip()!r}")
    text = "".join(out) + tail
    if text != text.strip() or not text:
        raise GoldSourceError(f"{where}: empty side or space at its edge")
    return text, mentions


def read_document(path: Path, doc: str) -> list[dict]:
    """The gold records of one source document."""
    rows = []
    definitions: dict[str, dict] = {}
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path}:{no}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        drops: set[str] = set()
        if DROP_MARK in line:
            line, _, dropped = line.partition(DROP_MARK)
            drops = set(dropped.split())
            if not drops:
                raise GoldSourceError(f"{where}: '%% drop' names no entity id")
        if line.count(PAIR_SEPARATOR.strip()) != 1 or PAIR_SEPARATOR not in line:
            raise GoldSourceError(f"{where}: a pair line needs exactly one ' ||| '")
        src_marked, tgt_marked = line.split(PAIR_SEPARATOR)
        src, src_mentions = parse_side(src_marked.strip(), where)
        tgt, tgt_mentions = parse_side(tgt_marked.strip(), where)
        for _, _, eid, definition in src_mentions + tgt_mentions:
            if definition is None:
                continue
            known = definitions.setdefault(eid, definition)
            if known != definition:
                raise GoldSourceError(f"{where}: {eid} defined as {definition} but earlier as {known}")
        one_sided = {m[2] for m in src_mentions} ^ {m[2] for m in tgt_mentions}
        if one_sided != drops:
            missing, stale = sorted(one_sided - drops), sorted(drops - one_sided)
            raise GoldSourceError(f"{where}: ids on one side only {missing} not declared with '%% drop'"
                                  if missing else f"{where}: '%% drop' names {stale}, found on both sides")
        rows.append((where, src, tgt, src_mentions, tgt_mentions))
    if not rows:
        raise GoldSourceError(f"{path}: no sentence pairs")
    records = []
    for n, (where, src, tgt, src_mentions, tgt_mentions) in enumerate(rows, 1):
        sides = []
        for mentions in (src_mentions, tgt_mentions):
            ents = []
            for start, end, eid, _ in mentions:
                if eid not in definitions:
                    raise GoldSourceError(f"{where}: {eid} is never given a category in {path.name}")
                ent = {"start": start, "end": end, "category": definitions[eid]["category"],
                       "entity": f"{doc}/{eid}"}
                for key in ("subtype", "public"):
                    if key in definitions[eid]:
                        ent[key] = definitions[eid][key]
                ents.append(ent)
            sides.append(ents)
        records.append({"id": f"{doc}:{n}", "doc": doc, "src": src, "tgt": tgt,
                        "src_entities": sides[0], "tgt_entities": sides[1]})
    return records


def build(src_dir: Path = SRC_DIR, extra_dir: Path = EXTRA_DIR, extra2_dir: Path = EXTRA2_DIR,
          extra3_dir: Path = EXTRA3_DIR) -> dict[str, list[dict]]:
    """Records of each file: odd-numbered documents of each genre of ``src_dir`` -> tune, even-numbered ->
    test; every document of ``extra_dir`` -> extra, of ``extra2_dir`` -> extra2, of ``extra3_dir`` -> extra3."""
    halves: dict[str, list[dict]] = {"tune": [], "test": [], "extra": [], "extra2": [], "extra3": []}
    tuning_only = {extra_dir: "extra", extra2_dir: "extra2", extra3_dir: "extra3"}
    for folder in (src_dir, extra_dir, extra2_dir, extra3_dir):
        genres = sorted(p for p in folder.iterdir() if p.is_dir())
        if not genres:
            raise GoldSourceError(f"{folder}: no genre folders")
        for genre in genres:
            for path in sorted(genre.glob("*.txt")):
                number = DOC_NUMBER.match(path.name)
                if not number:
                    raise GoldSourceError(f"{path}: a source file name starts with its number (01-slug.txt)")
                doc = f"{genre.name}-{path.stem}"
                half = tuning_only.get(folder) or ("tune" if int(number.group(1)) % 2 else "test")
                halves[half].extend(read_document(path, doc))
    return halves


def render(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def genre_of(record: dict) -> str:
    """Genre folder names have no hyphen, so the genre is what precedes the first one."""
    return record["doc"].split("-", 1)[0]


def stats(halves: dict[str, list[dict]]) -> str:
    lines = []
    for half, records in halves.items():
        docs = Counter(genre_of(r) for r in {r["doc"]: r for r in records}.values())
        pairs = Counter(genre_of(r) for r in records)
        lines.append(f"{half}: {len(records)} pairs, {sum(docs.values())} documents")
        for genre in sorted(pairs):
            lines.append(f"  {genre}: {pairs[genre]} pairs in {docs[genre]} documents")
        for side in ("src", "tgt"):
            cats = Counter(e["category"] + (":" + e["subtype"] if "subtype" in e else "")
                           + (":public" if e.get("public") else "")
                           for r in records for e in r[f"{side}_entities"])
            lines.append(f"  {side} mentions: " + ", ".join(f"{k} {v}" for k, v in sorted(cats.items())))
        ents = {e["entity"]: e["category"] for r in records for e in r["src_entities"] + r["tgt_entities"]}
        lines.append("  entities: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(ents.values()).items())))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    ap.add_argument("--stats", action="store_true", help="print pairs per genre and mentions per category")
    args = ap.parse_args(argv)
    try:
        halves = build()
    except GoldSourceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.stats:
        print(stats(halves))
        return 0
    stale = [p for half, p in HALVES.items()
             if not p.exists() or p.read_text(encoding="utf-8") != render(halves[half])]
    if args.check:
        for p in stale:
            print(f"{p}: out of date; run python corpora/gold/build.py", file=sys.stderr)
        return 1 if stale else 0
    for half, path in HALVES.items():
        tmp = path.with_suffix(".jsonl.tmp")
        tmp.write_text(render(halves[half]), encoding="utf-8")
        tmp.replace(path)
        print(f"{path.name}: {len(halves[half])} pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
