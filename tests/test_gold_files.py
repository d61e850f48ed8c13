"""The hand-written PT-EN gold set (corpora/gold): committed JSONL up to date with its sources and valid."""

from __future__ import annotations

import importlib.util
import re
from collections import defaultdict
from pathlib import Path

import pytest
from paranon.corpora.formats.gold import read_gold
from stdnum import iban
from stdnum.pt import cc, nif

GOLD_DIR = Path(__file__).resolve().parent.parent / "corpora" / "gold"
GENRES = sorted(p.name for p in (GOLD_DIR / "src").iterdir() if p.is_dir())

_spec = importlib.util.spec_from_file_location("gold_build", GOLD_DIR / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

# Labels that announce a Portuguese tax number, an IBAN, a citizen card (checked with python-stdnum).
NIF_LABEL = re.compile(r"(NIF|NIPC|contribuinte|coletiva|identificação fiscal( portugueses)?|tax (identification )?n)[^\d]{0,30}$",
                       re.IGNORECASE)
CC_LABEL = re.compile(r"cartão de cidadão n\.º $")
DIGIT_GROUPING = re.compile(r"[ .]")
NIF_DIGITS = re.compile(r"(PT)?\d{9}")
# The institution in the title of a numbered act it adopted is part of a public citation (GUIDELINES.md).
NUMBERED_ACT_BEFORE = re.compile(r"(Regulamento|Diretiva|Decisão|Aviso|Regulation|Directive|Decision|Notice)\b"
                                 r"(?:[^.;:]|\.\S)*?\d+/\d+(?:[^.;:]|\.\S)*?\b(d[oa]s?|of the)\s*$", re.IGNORECASE)


@pytest.fixture(scope="module")
def halves():
    return build.build()


@pytest.fixture(scope="module")
def records():
    return {half: list(read_gold(path)) for half, path in build.HALVES.items()}


@pytest.mark.parametrize("half", ["tune", "test", "extra", "extra2", "extra3"])
def test_committed_file_is_built_from_the_sources(halves, half):
    assert build.HALVES[half].read_text(encoding="utf-8") == build.render(halves[half])


@pytest.mark.parametrize("half", ["tune", "test"])
def test_each_half_has_200_pairs_and_every_genre(records, half):
    pairs = records[half]
    assert len(pairs) >= 200
    assert sorted({g.pair.doc.split("-", 1)[0] for g in pairs}) == GENRES


def test_halves_share_no_document(records):
    assert not {g.pair.doc for g in records["tune"]} & {g.pair.doc for g in records["test"]}


def _mentions(records):
    for half in records.values():
        for g in half:
            for side, text, ents in (("src", g.pair.src, g.src_entities), ("tgt", g.pair.tgt, g.tgt_entities)):
                for e in ents:
                    yield g, side, text, e, text[e["start"]:e["end"]]


def test_spans_have_no_space_or_punctuation_at_their_edges(records):
    bad = [(g.pair.id, s) for g, _, _, _, s in _mentions(records) if s != s.strip(" ,;:") or s[0] in ".)»"]
    assert not bad


def test_tax_numbers_ibans_and_citizen_cards_have_valid_check_digits(records):
    checked = defaultdict(int)
    for g, _, text, e, surface in _mentions(records):
        if e["category"] != "NAMEID":
            continue
        digits = DIGIT_GROUPING.sub("", surface)
        before = text[:e["start"]]
        if surface.startswith("PT50"):
            assert iban.is_valid(surface), (g.pair.id, surface)
            checked["iban"] += 1
        elif NIF_DIGITS.fullmatch(digits) and NIF_LABEL.search(before):
            assert nif.is_valid(digits.removeprefix("PT")), (g.pair.id, surface)
            checked["nif"] += 1
        elif CC_LABEL.search(before):
            assert cc.is_valid(surface), (g.pair.id, surface)
            checked["cc"] += 1
    assert checked["iban"] and checked["nif"] and checked["cc"]


def test_no_entity_is_repeated_across_documents(records):
    """Every person, company, address and number is new in each document (public bodies may recur)."""
    docs_of = defaultdict(set)
    for g, _, _, e, surface in _mentions(records):
        if not e.get("public") and e["category"] != "DATE" and len(surface) > 4:
            docs_of[surface.casefold()].add(g.pair.doc)
    assert {s: d for s, d in docs_of.items() if len(d) > 1} == {}


def test_a_marked_name_is_marked_wherever_it_recurs_in_its_document(records):
    """A surface marked once in a document is marked at each of its occurrences on that side."""
    by_doc = defaultdict(list)
    for half in records.values():
        for g in half:
            by_doc[g.pair.doc].append(g)
    missed = []
    for pairs in by_doc.values():
        for side in ("src", "tgt"):
            surfaces = {getattr(g.pair, side)[e["start"]:e["end"]] for g in pairs
                        for e in getattr(g, f"{side}_entities") if e["category"] != "DATE"}
            for g in pairs:
                text, ents = getattr(g.pair, side), getattr(g, f"{side}_entities")
                covered = {i for e in ents for i in range(e["start"], e["end"])}
                for s in (s for s in surfaces if len(s) > 3):
                    for m in re.finditer(rf"(?<!\w){re.escape(s)}(?!\w)", text, re.IGNORECASE):
                        if not covered & set(range(m.start(), m.end())) \
                                and not NUMBERED_ACT_BEFORE.search(text[:m.start()]):
                            missed.append((g.pair.id, side, s))
    assert not missed


EXAMPLE = ("Entre [[P1:PERSON|Ana Sousa]] e a [[C1:ORGANIZATION:COMPANY|Tecnifluxo, Lda.]] ||| "
           "Between [[P1|Ana Sousa]] and [[C1|Tecnifluxo, Lda.]]\n"
           "A [[C1|Tecnifluxo]] paga. ||| [[C1|Tecnifluxo]] pays.\n")


def test_markup_becomes_gold_offsets(tmp_path):
    path = tmp_path / "01-example.txt"
    path.write_text(EXAMPLE, encoding="utf-8")
    first, second = build.read_document(path, "genre-01-example")
    assert [(first["src"][e["start"]:e["end"]], e["category"], e["entity"]) for e in first["src_entities"]] == [
        ("Ana Sousa", "PERSON", "genre-01-example/P1"), ("Tecnifluxo, Lda.", "ORGANIZATION", "genre-01-example/C1")]
    assert second["tgt"][slice(second["tgt_entities"][0]["start"], second["tgt_entities"][0]["end"])] == "Tecnifluxo"
    assert second["src_entities"][0]["subtype"] == "COMPANY"


@pytest.mark.parametrize("line, message", [
    ("[[P1:PERSON|Ana Sousa] assinou. ||| [[P1|Ana Sousa]] signed.", "unbalanced markup"),
    ("[[P1:PERSON|Ana Sousa]] assinou. ||| Ana Sousa signed.", "not declared with '%% drop'"),
    ("[[P1:PERSON|Ana Sousa]] assinou. ||| [[P1|Ana Sousa]] signed. %% drop P1", "found on both sides"),
    ("[[P1:PERSON|Ana Sousa]] e [[P1:DATE|Rosa]]. ||| [[P1|Ana Sousa]] and [[P1|Rosa]].", "defined as"),
    ("[[C1:ORGANIZATION|Sol, Lda.]] paga. ||| [[C1|Sol, Lda.]] pays.", "needs a subtype"),
    ("[[P1|Ana Sousa]] assinou. ||| [[P1|Ana Sousa]] signed.", "never given a category"),
    ("[[P1:PERSON|Ana Sousa,]] assinou. ||| [[P1|Ana Sousa]] signed.", "at an edge"),
    ("[[K1:NAMEID|123]] sem tradução", "exactly one ' ||| '"),
    ("[[X1:PLACE|Lisboa]] ||| [[X1|Lisbon]]", "unknown category"),
])
def test_bad_markup_stops_with_the_file_and_line(tmp_path, line, message):
    path = tmp_path / "02-bad.txt"
    path.write_text("# a comment\n" + line + "\n", encoding="utf-8")
    with pytest.raises(build.GoldSourceError, match=re.escape(f"{path}:2: ") + ".*" + re.escape(message)):
        build.read_document(path, "genre-02-bad")


def test_a_dropped_mention_is_declared(tmp_path):
    path = tmp_path / "03-drop.txt"
    path.write_text("Assinou [[P1:PERSON|Ana Sousa]]. ||| Signed. %% drop P1\n", encoding="utf-8")
    (record,) = build.read_document(path, "genre-03-drop")
    assert len(record["src_entities"]) == 1 and record["tgt_entities"] == []


def test_one_surface_names_one_entity_within_a_document(records):
    ids_of = defaultdict(set)
    for g, side, _, e, surface in _mentions(records):
        ids_of[(g.pair.doc, side, surface)].add(e["entity"])
    assert {k: v for k, v in ids_of.items() if len(v) > 1} == {}
