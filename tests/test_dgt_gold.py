"""The DGT-TM precision gold (corpora/gold/dgt/): built from the originals in ../shared, it reads as gold
and holds exactly the counts its README states; a changed source or a bad annotation stops the build
with the unit named."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from paranon.corpora.formats.gold import read_gold

from paranon.errors import InputError
from tests.conftest import ROOT, SHARED, needs_shared

DGT_DIR = ROOT / "corpora" / "gold" / "dgt"
ORIGINALS = SHARED / "dgt-tm-pt-en" / "original_tmx"
README_ROW = re.compile(r"^\| (22019D\d{4}|total) \|(.+)\|$")

_spec = importlib.util.spec_from_file_location("dgt_gold_build", DGT_DIR / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

pytestmark = needs_shared(ORIGINALS)


def readme_counts() -> dict[str, dict[str, int]]:
    """The counts table of corpora/gold/dgt/README.md (header row: document | units | ...)."""
    lines = (DGT_DIR / "README.md").read_text(encoding="utf-8").splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| document | units |"))
    heads = [h.strip() for h in lines[header].strip("|").split("|")][1:]
    rows = {}
    for line in lines[header + 2:]:
        m = README_ROW.match(line)
        if not m:
            break
        rows[m[1]] = dict(zip(heads, (int(v) for v in m[2].split("|")), strict=True))
    return rows


@pytest.fixture(scope="module")
def gold(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dgt-gold") / "dgt_precision.jsonl"
    assert build.main(["build", str(out), "--data", str(ORIGINALS)]) == 0
    return out


def test_gold_reads_and_has_the_readme_counts(gold):
    pairs = list(read_gold(gold))
    measured = build.tally((g.pair.doc, g.src_entities, g.tgt_entities) for g in pairs)
    assert measured == readme_counts()
    assert sorted({g.pair.doc for g in pairs}) == sorted(build.DOCUMENTS)


def test_every_entity_is_in_both_languages(gold):
    for g in read_gold(gold):
        assert {e["entity"] for e in g.src_entities} == {e["entity"] for e in g.tgt_entities}, g.pair.id


def before_parenthesis(seg: str) -> str:
    return seg.split(" (")[0]


def whole(seg: str) -> str:
    return seg


def without_final_stop(seg: str) -> str:
    return seg.rstrip(".")


# The expected span is described by where it lies in the segment (the DGT text itself stays out of git).
@pytest.mark.parametrize("doc, unit, side, category, span_of", [
    ("22019D0710", 31, "src", "PERSON", before_parenthesis),   # an arbitrator: "Given SURNAME (Country)"
    ("22019D0710", 37, "tgt", "PERSON", whole),                # a hyphenated given name, an en dash in EN
    ("22019D1400", 41, "src", "PERSON", whole),                # a signatory; a no-break space in PT
    ("22019D0996", 496, "src", "ADDRESS", without_final_stop), # a street line of a regulator's address
])
def test_examples_of_entities(gold, doc, unit, side, category, span_of):
    g = next(g for g in read_gold(gold) if g.pair.id == f"{doc}:{unit}")
    seg = g.pair.src if side == "src" else g.pair.tgt
    ents = g.src_entities if side == "src" else g.tgt_entities
    assert [(seg[e["start"]:e["end"]], e["category"]) for e in ents] == [(span_of(seg), category)]


@pytest.mark.parametrize("doc, unit", [
    ("22019D1357", 7),    # a regulation cited with its date: public text
    ("22019D0710", 18),   # "Done at" a capital with the act's own date
    ("22019D0391", 4),    # an ALL-CAPS heading naming the committee
])
def test_examples_of_units_with_nothing_to_mask(gold, doc, unit):
    g = next(g for g in read_gold(gold) if g.pair.id == f"{doc}:{unit}")
    assert g.src_entities == [] and g.tgt_entities == []


def _one_annotation(tmp_path: Path, change) -> Path:
    recs = [json.loads(line) for line in (DGT_DIR / "annotations.jsonl").read_text().splitlines()]
    change(recs[0])
    path = tmp_path / "annotations.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(src_sha1="0" * 40), "unit 22019D0437:25: the segment text changed"),
    (lambda r: r["src_entities"][0].update(end=10**6), "outside a segment"),
    (lambda r: r["tgt_entities"].append(dict(r["tgt_entities"][0])), "overlapping entities"),
    (lambda r: r.update(unit=10**6), r"unit 22019D0437:1000000 is not a PT\+EN unit"),
    (lambda r: r["src_entities"][0].update(category="PLACE"), "bad src entity"),
])
def test_a_bad_annotation_stops_the_build_naming_the_unit(tmp_path, change, message):
    annotations = _one_annotation(tmp_path, change)
    with pytest.raises(InputError, match=message) as err:
        build.build(tmp_path / "gold.jsonl", ORIGINALS, annotations)
    assert str(annotations) in str(err.value)
    assert not (tmp_path / "gold.jsonl").exists()


def test_a_changed_original_is_an_error_naming_the_unit(tmp_path):
    """An original whose annotated segment was edited (a name respelled) no longer matches its hash."""
    data = tmp_path / "originals"
    data.mkdir()
    for doc in build.DOCUMENTS:
        (data / f"{doc}.tmx").symlink_to(ORIGINALS / f"{doc}.tmx")
    pt = next(pt for unit, pt, _ in build.read_units(ORIGINALS / "22019D0710.tmx") if unit == 32)
    xml = (ORIGINALS / "22019D0710.tmx").read_bytes().decode("utf-16")
    edited = xml.replace(f"<seg>{pt}</seg>", f"<seg>{pt}x</seg>")
    assert edited != xml
    (data / "22019D0710.tmx").unlink()
    (data / "22019D0710.tmx").write_bytes(edited.encode("utf-16"))
    with pytest.raises(InputError, match=r"unit 22019D0710:32: the segment text changed"):
        build.build(tmp_path / "gold.jsonl", data)


def test_a_missing_original_is_a_one_line_error(tmp_path, capsys):
    assert build.main(["build", str(tmp_path / "gold.jsonl"), "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and err.count("\n") == 1
    assert not (tmp_path / "gold.jsonl").exists()
