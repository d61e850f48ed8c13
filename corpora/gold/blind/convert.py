"""Build blind_test.jsonl (paranon's gold JSONL) from the annotated sources in src/.

Each source file is one document: lines `P: ...` (Portuguese) and `E: ...` (English) alternate.
An entity is written `{surface|CAT|id}`: CAT is PER, ORG, ORG.C, ORG.A, ORG.I, ADDR, ID or DATE,
with `!` at the end for a public body ("public": true); `id` is the entity's id in the document,
shared by both languages. `{text|-|-}` is plain text (a title or place kept visible on purpose).

    python corpora/gold/blind/convert.py   # writes blind_test.jsonl, .tsv and .tmx here

The second blind set (corpora/gold/blind2/convert.py) is built by this same code: ``main(folder, name)``.
"""
import json
import re
import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
MARK = re.compile(r"\{([^{}|]+)\|([^{}|]+)\|([^{}|]+)\}")
CATEGORIES = {"PER": "PERSON", "ORG": "ORGANIZATION", "ADDR": "ADDRESS", "ID": "NAMEID", "DATE": "DATE"}
SUBTYPES = {"C": "COMPANY", "A": "ADMIN", "I": "INSTITUTION"}


def parse(line, doc, where):
    """Plain text and entity dicts of one annotated line."""
    text, entities, pos = "", [], 0
    for m in MARK.finditer(line):
        text += line[pos:m.start()]
        surface, cat, ident = m.groups()
        start = len(text)
        text += surface
        pos = m.end()
        if cat == "-":
            continue
        public = cat.endswith("!")
        head, _, sub = cat.rstrip("!").partition(".")
        if head not in CATEGORIES or (sub and sub not in SUBTYPES):
            sys.exit(f"{where}: unknown category {cat!r}")
        ent = {"start": start, "end": len(text), "category": CATEGORIES[head], "entity": f"{doc}:{ident}"}
        if sub:
            ent["subtype"] = SUBTYPES[sub]
        if public:
            ent["public"] = True
        entities.append(ent)
    text += line[pos:]
    if "{" in text or "}" in text or "|" in text:
        sys.exit(f"{where}: unbalanced mark-up")
    return text, entities


def check(records):
    """Every span is non-empty, has no outer spaces, and each entity id keeps one category and
    is present on both sides of its pair."""
    seen = {}
    for r in records:
        for side in ("src", "tgt"):
            for e in r[side + "_entities"]:
                s = r[side][e["start"]:e["end"]]
                if not s or s != s.strip():
                    sys.exit(f"{r['id']}: bad span {s!r}")
                c = (e["category"], e.get("subtype"), e.get("public", False))
                if seen.setdefault(e["entity"], c) != c:
                    sys.exit(f"{r['id']}: {e['entity']} changes category")
        if sorted(e["entity"] for e in r["src_entities"]) != sorted(e["entity"] for e in r["tgt_entities"]):
            sys.exit(f"{r['id']}: the two sides mark different entities")


def write_tmx(records, path, brazilian_tag=False):
    """The pairs as a TMX 1.4b file, each unit's document in a `doc` prop (with ``brazilian_tag``, a document
    whose name ends in ``_br`` is tagged pt-BR)."""
    units = []
    for r in records:
        lang = "pt-BR" if brazilian_tag and r["doc"].endswith("_br") else "pt-PT"
        units.append(f'<tu tuid="{escape(r["id"])}"><prop type="doc">{escape(r["doc"])}</prop>'
                     f'<tuv xml:lang="{lang}"><seg>{escape(r["src"])}</seg></tuv>'
                     f'<tuv xml:lang="en-GB"><seg>{escape(r["tgt"])}</seg></tuv></tu>')
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
                    '<header creationtool="convert.py" creationtoolversion="1" segtype="sentence" '
                    'o-tmf="none" adminlang="en" srclang="pt-PT" datatype="plaintext"/>\n<body>\n'
                    + "\n".join(units) + "\n</body>\n</tmx>\n", encoding="utf-8")


def main(here=HERE, name="blind_test", brazilian_tag=False):
    """Convert ``here/src`` to ``here/NAME.jsonl``, ``.tsv`` and ``.tmx``."""
    records = []
    for path in sorted((here / "src").glob("*.txt")):
        doc = path.stem
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        if len(lines) % 2:
            sys.exit(f"{path.name}: odd number of lines")
        for k in range(0, len(lines), 2):
            p, e = lines[k], lines[k + 1]
            if not (p.startswith("P: ") and e.startswith("E: ")):
                sys.exit(f"{path.name}:{k + 1}: expected a P: line then an E: line")
            src, src_ents = parse(p[3:], doc, f"{path.name}:{k + 1}")
            tgt, tgt_ents = parse(e[3:], doc, f"{path.name}:{k + 2}")
            records.append({"id": f"{doc}:{k // 2 + 1}", "doc": doc, "src": src, "tgt": tgt,
                            "src_entities": src_ents, "tgt_entities": tgt_ents})
    check(records)
    out = here / f"{name}.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    tsv = here / f"{name}.tsv"
    with tsv.open("w", encoding="utf-8") as fh:
        fh.write("id\tdoc\tpt\ten\n")
        for r in records:
            fh.write(f"{r['id']}\t{r['doc']}\t{r['src']}\t{r['tgt']}\n")
    write_tmx(records, here / f"{name}.tmx", brazilian_tag)
    print(f"{len(records)} pairs, {len({r['doc'] for r in records})} documents -> {out.name}, {tsv.name}")


if __name__ == "__main__":
    main()
