"""Build the DGT-TM precision gold: the text of the chosen DGT-TM documents joined with committed offsets.

The DGT text never enters git. ``annotations.jsonl`` (next to this file) holds, per annotated unit, the
document, the unit (1-based position of the ``<tu>`` in its original file), the SHA-1 of its PT and EN
segments and the entities as character offsets; every other unit of a chosen document is gold "nothing
to mask". See README.md and GUIDELINES.md in this folder.

    python corpora/gold/dgt/build.py build [OUT.jsonl] [--data DIR]   # the gold (default: dgt_precision.jsonl here)
    python corpora/gold/dgt/build.py dump DOC [--data DIR]            # units of one document, numbered
    python corpora/gold/dgt/build.py anchor DRAFT.txt [--data DIR]    # string annotations -> annotations.jsonl
    python corpora/gold/dgt/build.py stats [GOLD.jsonl]                # the counts table of README.md

A draft (kept outside git: it quotes the text) is plain text, one mention a line:

    @22019D0710                      # the document of the lines that follow
    31 b P1 Maria SILVEIRA           # unit, side (s = PT, t = EN, b = the same string on both), entity, string
    12 s G1 Conselho de Parceria~1   # ~N: the N-th occurrence (from 0) of the string in the segment; ~* all
    12 t G1 Council of Ministers~*
    40 -                             # a unit looked at and found empty (kept in the draft as a note only)

The entity's first letter gives its category: P PERSON, C ORGANIZATION (private), G ORGANIZATION of a
public body (``"public": true``), A ADDRESS, R ADDRESS of a public body (``"public": true``), N NAMEID,
D DATE. Text after `` # `` is a comment.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from lxml import etree

from paranon.errors import InputError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
DATA = ROOT.parent / "shared" / "data" / "dgt-tm-pt-en" / "original_tmx"
ANNOTATIONS = HERE / "annotations.jsonl"
DEFAULT_OUT = HERE / "dgt_precision.jsonl"

# The chosen documents (CELEX numbers); README.md says why each one.
DOCUMENTS = (
    "22019D0391", "22019D0437", "22019D0556", "22019D0710", "22019D0920", "22019D0996",
    "22019D1035", "22019D1186", "22019D1343", "22019D1357", "22019D1400", "22019D1401",
)

CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE")
EXTRA_KEYS = ("public", "subtype")
SRC_LANG, TGT_LANG = "PT-PT", "EN-GB"
DOC_PROP = "Txt::Doc. No."


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def read_units(path: Path) -> Iterator[tuple[int, str, str]]:
    """(unit, pt, en) for every ``<tu>`` of one original DGT-TM file holding both languages, in order;
    ``unit`` is the 1-based position of the ``<tu>`` in the file (units without PT or EN are skipped)."""
    if not path.exists():
        raise InputError(f"{path}: no such file (the DGT-TM originals are read from ../shared/data)")
    parser = etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, huge_tree=True)
    try:
        tree = etree.parse(str(path), parser)
    except etree.XMLSyntaxError as exc:
        raise InputError(f"{path}: not well-formed XML ({exc})") from None
    for no, tu in enumerate(tree.getroot().iter("tu"), 1):
        segs = {}
        for tuv in tu.iter("tuv"):
            lang = (tuv.get("lang") or tuv.get("{http://www.w3.org/XML/1998/namespace}lang") or "").upper()
            seg = tuv.find("seg")
            if seg is not None:
                segs[lang] = "".join(seg.itertext())
        if segs.get(SRC_LANG) and segs.get(TGT_LANG):
            yield no, segs[SRC_LANG], segs[TGT_LANG]


def read_annotations(path: Path) -> dict[tuple[str, int], dict]:
    """Annotation records by (doc, unit); a malformed line stops with the file and line named."""
    out: dict[tuple[str, int], dict] = {}
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                key = (str(rec["doc"]), int(rec["unit"]))
                rec["src_sha1"], rec["tgt_sha1"]
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise InputError(f"{path}:{no}: not an annotation record ({exc})") from None
            if key in out:
                raise InputError(f"{path}:{no}: unit {key[0]}:{key[1]} annotated twice")
            if key[0] not in DOCUMENTS:
                raise InputError(f"{path}:{no}: document {key[0]} is not one of the chosen documents")
            for side in ("src", "tgt"):
                for e in rec.get(f"{side}_entities", []):
                    if e.get("category") not in CATEGORIES or not e.get("entity"):
                        raise InputError(f"{path}:{no}: bad {side} entity {json.dumps(e)}")
            out[key] = rec
    return out


def check_offsets(where: str, text: str, entities: list[dict]) -> None:
    spans = sorted((int(e["start"]), int(e["end"])) for e in entities)
    for start, end in spans:
        if not 0 <= start < end <= len(text):
            raise InputError(f"{where}: entity offsets {start}-{end} outside a segment of {len(text)} characters")
        if text[start].isspace() or text[end - 1].isspace():
            raise InputError(f"{where}: entity {start}-{end} starts or ends on a space")
    for (_, end1), (start2, _) in zip(spans, spans[1:], strict=False):
        if start2 < end1:
            raise InputError(f"{where}: overlapping entities")


def build(out: Path, data: Path = DATA, annotations: Path = ANNOTATIONS) -> dict[str, int]:
    """Write the gold JSONL (every PT+EN unit of the chosen documents); return the counts."""
    ann = read_annotations(annotations)
    seen: set[tuple[str, int]] = set()
    counts = {"units": 0, "annotated_units": 0}
    tmp = out.with_name(out.name + ".tmp")
    try:
        _write(tmp, data, ann, annotations, seen, counts)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    missing = sorted(set(ann) - seen)
    if missing:
        tmp.unlink()
        doc, unit = missing[0]
        raise InputError(f"{annotations}: unit {doc}:{unit} is not a PT+EN unit of {data / (doc + '.tmx')}")
    tmp.replace(out)
    return counts


def _write(tmp: Path, data: Path, ann: dict, annotations: Path, seen: set, counts: dict) -> None:
    with open(tmp, "w", encoding="utf-8") as fh:
        for doc in DOCUMENTS:
            for unit, pt, en in read_units(data / f"{doc}.tmx"):
                rec = {"id": f"{doc}:{unit}", "doc": doc, "src": pt, "tgt": en,
                       "src_entities": [], "tgt_entities": []}
                a = ann.get((doc, unit))
                if a is not None:
                    where = f"{annotations}: unit {doc}:{unit}"
                    if a["src_sha1"] != sha1(pt) or a["tgt_sha1"] != sha1(en):
                        raise InputError(f"{where}: the segment text changed (SHA-1 differs from the annotation)")
                    for side, text in (("src", pt), ("tgt", en)):
                        ents = [{"start": int(e["start"]), "end": int(e["end"]), "category": e["category"],
                                 "entity": f"{doc}/{e['entity']}", **{k: e[k] for k in EXTRA_KEYS if k in e}}
                                for e in a.get(f"{side}_entities", [])]
                        check_offsets(f"{where} ({side})", text, ents)
                        rec[f"{side}_entities"] = ents
                    seen.add((doc, unit))
                    counts["annotated_units"] += 1
                counts["units"] += 1
                fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


PREFIXES = {"P": ("PERSON", {}), "C": ("ORGANIZATION", {}), "G": ("ORGANIZATION", {"public": True}),
            "A": ("ADDRESS", {}), "R": ("ADDRESS", {"public": True}), "N": ("NAMEID", {}), "D": ("DATE", {})}
DRAFT_LINE = re.compile(r"^(?P<unit>\d+)\s+(?P<side>[stb])\s+(?P<entity>[A-Z]\w*)\s+(?P<text>.+?)(?:~(?P<occ>\d+|\*))?$")
DRAFT_EMPTY = re.compile(r"^\d+\s+-$")
SPACE_IN_DRAFT = "[ \u00a0]"
DRAFT_COMMENT = re.compile(r"\s+#\s.*$|^#.*$")


def spans(text: str, needle: str, occ: str | None, where: str) -> list[tuple[int, int]]:
    """The span(s) of one draft mention: the ``occ``-th non-overlapping occurrence, or all (``*``); a space
    in the draft string also matches a no-break space (DGT-TM writes some names with one)."""
    pattern = re.compile(SPACE_IN_DRAFT.join(re.escape(part) for part in needle.split(" ")))
    found = [m.span() for m in pattern.finditer(text)]
    if occ == "*":
        if not found:
            raise InputError(f"{where}: {needle!r} not found")
        return found
    k = int(occ or 0)
    if k >= len(found):
        raise InputError(f"{where}: occurrence {k} of {needle!r} not found ({len(found)} found)")
    return [found[k]]


def anchor(draft: Path, data: Path = DATA, annotations: Path = ANNOTATIONS) -> int:
    """Turn a draft of string annotations into ``annotations.jsonl`` (offsets and hashes, no text)."""
    units = {}
    for doc in DOCUMENTS:
        for unit, pt, en in read_units(data / f"{doc}.tmx"):
            units[(doc, unit)] = (pt, en)
    recs: dict[tuple[str, int], dict] = {}
    doc = None
    with open(draft, encoding="utf-8") as fh:
        for no, raw in enumerate(fh, 1):
            line = DRAFT_COMMENT.sub("", raw.rstrip("\n")).strip()
            where = f"{draft}:{no}"
            if not line or DRAFT_EMPTY.match(line):
                continue
            if line.startswith("@"):
                doc = line[1:].strip()
                if doc not in DOCUMENTS:
                    raise InputError(f"{where}: {doc} is not one of the chosen documents")
                continue
            m = DRAFT_LINE.match(line)
            if not m or doc is None or m["entity"][0] not in PREFIXES:
                raise InputError(f"{where}: not a draft line (UNIT s|t|b ENTITY STRING[~N|~*] after @DOC)")
            key = (doc, int(m["unit"]))
            if key not in units:
                raise InputError(f"{where}: {doc}:{key[1]} is not a PT+EN unit")
            pt, en = units[key]
            rec = recs.setdefault(key, {"doc": doc, "unit": key[1], "src_sha1": sha1(pt), "tgt_sha1": sha1(en),
                                        "src_entities": [], "tgt_entities": []})
            category, extra = PREFIXES[m["entity"][0]]
            for side, text in (("src", pt), ("tgt", en)):
                if m["side"] in (side[0], "b"):
                    for start, end in spans(text, m["text"], m["occ"], f"{where} ({side})"):
                        rec[f"{side}_entities"].append({"start": start, "end": end, "category": category,
                                                        "entity": m["entity"], **extra})
    for (doc, unit), rec in recs.items():
        for side, text in zip(("src", "tgt"), units[(doc, unit)], strict=True):
            rec[f"{side}_entities"].sort(key=lambda e: e["start"])
            check_offsets(f"{draft}: unit {doc}:{unit} ({side})", text, rec[f"{side}_entities"])
    with open(annotations, "w", encoding="utf-8") as fh:
        for key in sorted(recs, key=lambda k: (DOCUMENTS.index(k[0]), k[1])):
            fh.write(json.dumps(recs[key]) + "\n")
    return len(recs)


COLUMNS = ("PERSON", "ORGANIZATION", "ORGANIZATION public", "ADDRESS", "ADDRESS public", "NAMEID", "DATE")


def column(entity: dict) -> str:
    return entity["category"] + (" public" if entity.get("public") else "")


def tally(records: Iterable[tuple[str, list[dict], list[dict]]]) -> dict[str, dict[str, int]]:
    """Per document (and ``total``) from ``(doc, src_entities, tgt_entities)`` per unit: units, units with
    entities, distinct entities per column of :data:`COLUMNS`, PT and EN mentions."""
    rows: dict[str, dict[str, int]] = {}
    ids: dict[str, set[tuple[str, str]]] = {}
    for doc, src, tgt in records:
        for key in (doc, "total"):
            row = rows.setdefault(key, {"units": 0, "with entities": 0, **dict.fromkeys(COLUMNS, 0),
                                        "PT mentions": 0, "EN mentions": 0})
            row["units"] += 1
            row["with entities"] += bool(src or tgt)
            row["PT mentions"] += len(src)
            row["EN mentions"] += len(tgt)
            ids.setdefault(key, set()).update((e["entity"], column(e)) for e in src + tgt)
    for key, row in rows.items():
        for _, col in ids[key]:
            row[col] += 1
    if rows:
        rows["total"] = rows.pop("total")  # last
    return rows


def table(rows: dict[str, dict[str, int]]) -> str:
    """The counts as the Markdown table of README.md."""
    heads = list(next(iter(rows.values())))
    lines = ["| document | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for key, row in rows.items():
        lines.append(f"| {key} | " + " | ".join(str(row[h]) for h in heads) + " |")
    return "\n".join(lines)


def read_gold_counts(path: Path) -> dict[str, dict[str, int]]:
    with open(path, encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    order = {doc: i for i, doc in enumerate(DOCUMENTS)}
    recs.sort(key=lambda r: order.get(r["doc"], len(order)))
    return tally((r["doc"], r["src_entities"], r["tgt_entities"]) for r in recs)


def dump(doc: str, data: Path = DATA) -> None:
    for unit, pt, en in read_units(data / f"{doc}.tmx"):
        print(f"[{unit}] PT: {pt}\n[{unit}] EN: {en}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="write the gold JSONL")
    b.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    d = sub.add_parser("dump", help="print the PT+EN units of one document with their unit numbers")
    d.add_argument("doc")
    a = sub.add_parser("anchor", help="turn a draft of string annotations into annotations.jsonl")
    a.add_argument("draft", type=Path)
    t = sub.add_parser("stats", help="print the counts table of a built gold file (README.md)")
    t.add_argument("gold", nargs="?", type=Path, default=DEFAULT_OUT)
    for p in (b, d, a):
        p.add_argument("--data", type=Path, default=DATA, help="folder of the original DGT-TM TMX files")
        p.add_argument("--annotations", type=Path, default=ANNOTATIONS)
    args = ap.parse_args(argv)
    try:
        if args.cmd == "build":
            counts = build(args.out, args.data, args.annotations)
            print(f"{args.out}: {counts['units']} units, {counts['annotated_units']} with entities")
        elif args.cmd == "stats":
            print(table(read_gold_counts(args.gold)))
        elif args.cmd == "dump":
            dump(args.doc, args.data)
        else:
            print(f"{args.annotations}: {anchor(args.draft, args.data, args.annotations)} annotated units")
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
