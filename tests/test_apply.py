"""``paranon apply`` recomputes only what a review's decisions reach: for each kind of decision, the outputs
are the same bytes as when every document is recognized, made consistent, transferred and written again from
the same checkpoint (the one documented difference from ``paranon run`` with the same decisions: the aligner
is not run again, the run's links are fitted to the new tokens)."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from paranon.anonymize.engine import Replaced

from paranon.apply import apply_decisions
from paranon.apply_chunk import fit_links
from paranon.config import load_config
from paranon.pipeline import run
from paranon.review import Decisions

from .conftest import SAMPLE

FILES = ["corpus.jsonl", "corpus.tmx", "corpus.tsv", "corpus.pt", "corpus.en", "alignments.pharaoh"]


def small_chunks():
    c = load_config()
    c["workers"] = 1
    c["chunk_size"] = 90  # the sample's 12 documents in 4 chunks of 3: a decision reaches some of them
    c["index"]["enabled"] = False  # the index after apply: tests/test_review_browser.py
    return c


# a span the reviewer selects and masks: a reference no recognizer takes for an entity, in one unit (every
# visible word of the template-made sample is in every document)
MISSED = "ref. interna qx-zorblat"


def run_sample(folder, cfg):
    """The sample with ``MISSED`` in one unit, run into ``folder/out`` (the input is ``folder/tm.tmx``)."""
    tm = folder / "tm.tmx"
    tm.write_text(SAMPLE.read_text(encoding="utf-8").replace("celebrado entre", f"({MISSED}) celebrado entre", 1),
                  encoding="utf-8")
    out = folder / "out"
    run(tm, out, cfg, quiet=True)
    assert MISSED in (out / "corpus.jsonl").read_text(encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return run_sample(tmp_path_factory.mktemp("apply-base"), small_chunks())


def _first(out, sql):
    db = sqlite3.connect(out / "keys.sqlite")
    try:
        return db.execute(sql).fetchone()
    finally:
        db.close()


def _person(out):
    return _first(out, "SELECT original FROM mentions WHERE side = 'src' AND category = 'PERSON' "
                       "GROUP BY original ORDER BY COUNT(DISTINCT unit) DESC, original LIMIT 1")[0]


def _decisions(out) -> dict[str, Decisions]:
    person = _person(out)
    unit, org = _first(out, "SELECT unit, original FROM mentions WHERE side = 'src' AND category LIKE "
                            "'ORGANIZATION%' ORDER BY rowid LIMIT 1")
    doc = next(json.loads(line)["doc"] for line in open(out / "corpus.jsonl", encoding="utf-8")
               if json.loads(line)["id"] == unit)
    miss = "qx-zorblat"
    merged, split = Decisions(), Decisions()
    merged.merge(*_two_people(out))
    split.split(*_surname_apart(out))
    # a review of every kind at once (as bench/apply.py's): a merge, a split, a new category, a masked span,
    # an organisation not an entity in one document
    every = Decisions(allow_in_documents={doc: [org]}, deny={"PERSON": [miss]})
    every.merge(*_two_people(out))
    every.split(*_surname_apart(out))
    return {
        "not an entity, everywhere": Decisions(allow=[person]),
        "not an entity, in one document": Decisions(allow_in_documents={doc: [org]}),
        "change category": Decisions(deny={"ORGANIZATION_COMPANY": [person]}),
        "mask this span": Decisions(deny={"PERSON": [miss]}),
        "several at once": Decisions(allow=[org], deny={"PERSON": [miss]}),
        "merge with entity N": merged,
        "split": split,
        "every kind at once": every,
    }


def _forms(out, where: str) -> dict[tuple[str, int], list[str]]:
    """The source forms of each PERSON entity (scope, number) of the rows ``where`` picks."""
    rows = _rows(out, "SELECT scope, number, original FROM mentions WHERE side = 'src' AND category = 'PERSON' "
                      f"AND {where} ORDER BY rowid")
    out_: dict[tuple[str, int], list[str]] = {}
    for scope, number, original in rows:
        forms = out_.setdefault((scope, number), [])
        if original not in forms:
            forms.append(original)
    return out_


def _two_people(out) -> tuple[list[str], list[str]]:
    """Two people of the first document (their forms): a merge."""
    first = _first(out, "SELECT scope FROM mentions ORDER BY rowid LIMIT 1")[0]
    people = list(_forms(out, f"scope = '{first}'").values())
    return people[0], people[1]


def _surname_apart(out) -> tuple[list[str], list[str]]:
    """A bare surname and the full names of its entity: a split."""
    forms = next(fs for fs in _forms(out, "1").values()
                 if any(len(f.split()) == 1 for f in fs) and any(len(f.split()) > 1 for f in fs))
    return [f for f in forms if len(f.split()) == 1], [f for f in forms if len(f.split()) > 1]


def _outputs(out) -> dict[str, object]:
    got: dict[str, object] = {f: (out / f).read_bytes() for f in FILES}
    db = sqlite3.connect(out / "keys.sqlite")
    got["keys"] = (list(db.execute("SELECT * FROM mentions")), list(db.execute("SELECT * FROM entities")),
                   list(db.execute("SELECT * FROM ids")))
    db.close()
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    for key in ("timings_s", "applied"):
        report.pop(key, None)
    report["audit"].pop("seconds", None)
    got["report"] = report
    return got


def _apply(base, tmp_path, name, decisions, everything, workers=1):
    out = tmp_path / name
    shutil.copytree(base, out, symlinks=True)
    decisions.save(out)
    cfg = small_chunks()
    cfg["workers"] = workers
    report = apply_decisions(out, decisions.overlay(cfg), everything=everything)
    assert report is not None, "the checkpoint is there and only the decisions changed"
    return out, report


@pytest.mark.parametrize("kind", ["not an entity, everywhere", "not an entity, in one document", "change category",
                                  "mask this span", "several at once", "merge with entity N", "split",
                                  "every kind at once"])
def test_apply_recomputes_only_what_the_decisions_reach(base, tmp_path, kind):
    decisions = _decisions(base)[kind]
    inc, report = _apply(base, tmp_path, "incremental", decisions, False)
    ref, _ = _apply(base, tmp_path, "every-document", decisions, True)
    assert _outputs(inc) == _outputs(ref)
    applied = report["applied"]
    assert 0 < applied["documents_recognized"] < applied["documents"]
    assert applied["documents_written"] < applied["documents"]
    assert _outputs(inc) != _outputs(base), "the decision changed the outputs"
    assert report["audit"]["files_scanned"] == json.loads((ref / "report.json").read_text())["audit"]["files_scanned"]
    assert (inc / ".checkpoint").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("kind", ["change category", "merge with entity N", "split", "every kind at once"])
def test_the_chunks_steps_on_two_processes_give_the_same_outputs(base, tmp_path, kind):
    """With two processes (chunk K always in the same one), the outputs are those of one process."""
    decisions = _decisions(base)[kind]
    two, report = _apply(base, tmp_path, "two", decisions, False, workers=2)
    one, _ = _apply(base, tmp_path, "one", decisions, False)
    assert report["applied"]["chunks_written"] > 1
    assert _outputs(two) == _outputs(one)


@pytest.mark.parametrize("kind", ["not an entity, everywhere", "change category", "mask this span",
                                  "merge with entity N", "split"])
def test_the_source_side_is_a_full_runs(base, tmp_path, kind):
    """Against ``paranon run`` with the same decisions: the source side (recognition, numbering, corpus
    consistency) is the same bytes; the target side differs only where the full run's new alignment does."""
    decisions = _decisions(base)[kind]
    inc, _ = _apply(base, tmp_path, "incremental", decisions, False)
    full = tmp_path / "full"
    run(base.parent / "tm.tmx", full, decisions.overlay(small_chunks()), quiet=True)
    assert (inc / "corpus.pt").read_bytes() == (full / "corpus.pt").read_bytes()
    src_rows = "SELECT unit, start, end, number, category, subtype, original FROM mentions WHERE side = 'src'"
    assert _rows(inc, src_rows) == _rows(full, src_rows)


def _rows(out, sql):
    db = sqlite3.connect(out / "keys.sqlite")
    try:
        return list(db.execute(sql))
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["not an entity, everywhere", "mask this span"])
def test_the_decision_shows_in_the_corpus(base, tmp_path, kind):
    decisions = _decisions(base)[kind]
    out, _ = _apply(base, tmp_path, "out", decisions, False)
    text = (out / "corpus.jsonl").read_text(encoding="utf-8")
    if decisions.allow:  # no longer an entity (a word of it may still be another entity's form)
        name = decisions.allow[0]
        assert _rows(base, f"SELECT 1 FROM mentions WHERE original = '{name}'")
        assert not _rows(out, f"SELECT 1 FROM mentions WHERE original = '{name}'")
        assert name.split()[0] in text
    else:
        span = decisions.deny["PERSON"][0]
        assert span in (base / "corpus.jsonl").read_text() and span not in text
        assert _rows(out, f"SELECT 1 FROM mentions WHERE original = '{span}' AND category = 'PERSON'")


@pytest.mark.parametrize("kind", ["merge with entity N", "split"])
def test_a_merge_or_a_split_renumbers_both_sides(base, tmp_path, kind):
    """A merge: the two people are one number wherever they are named; a split: the surname never shares its
    former entity's number. The target side takes the source side's numbers."""
    decisions = _decisions(base)[kind]
    out, _ = _apply(base, tmp_path, "out", decisions, False)
    numbers = {}
    for (scope, number), forms in _forms(out, "1").items():
        for f in forms:
            numbers.setdefault(scope, {}).setdefault(f, set()).add(number)
    if decisions.same_entity:
        group = decisions.same_entity[0]
        assert all(len(set().union(*(ns[f] for f in group if f in ns))) == 1
                              for ns in numbers.values() if sum(f in ns for f in group) > 1)
        first = _first(base, "SELECT scope FROM mentions ORDER BY rowid LIMIT 1")[0]
        assert len(set().union(*(numbers[first][f] for f in group))) == 1
    else:
        pairs = decisions.different_entities
        assert pairs and all(not (ns[a] & ns[b]) for ns in numbers.values() for a, b in pairs if a in ns and b in ns)
    src = set(_rows(out, "SELECT unit, number FROM mentions WHERE side = 'src'"))
    tgt = set(_rows(out, "SELECT unit, number FROM mentions WHERE side = 'tgt' AND recognizer NOT LIKE 'transfer:target%'"))
    assert tgt <= src, "a target mention's number is its pair's source entity's"


def test_other_settings_need_a_full_run(base, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(base, out, symlinks=True)
    cfg = small_chunks()
    cfg["anonymize"]["scope"] = "segment"
    assert apply_decisions(out, cfg) is None
    shutil.rmtree(out / ".checkpoint")
    assert apply_decisions(out, small_chunks()) is None


@pytest.mark.parametrize("section, key, value", [
    ("index", "backend", "whoosh"),  # the index is built afresh after apply, with the settings given now
    ("index", "backend", "tantivy"),
    ("portal", "per_page", 7),
])
def test_index_and_portal_settings_keep_the_checkpoint(base, tmp_path, section, key, value):
    out = tmp_path / "out"
    shutil.copytree(base, out, symlinks=True)
    cfg = small_chunks()
    cfg[section][key] = value
    assert apply_decisions(out, cfg) is not None


def _rep(text: str, replacements: list[tuple[int, int, int]]) -> Replaced:
    return Replaced(text, [], replacements)


@pytest.mark.parametrize("old, new, links, fitted", [
    # unchanged text: the same links
    (_rep("Ana viu o contrato", []), _rep("Ana viu o contrato", []), [(0, 0), (3, 3)], [(0, 0), (3, 3)]),
    # two words masked into one placeholder: it takes both words' links
    (_rep("Bento Queiroga assina", []), _rep("<NAME1_PERSON> assina", [(0, 14, 14)]),
     [(0, 0), (1, 1), (2, 2)], [(0, 0), (0, 1), (1, 2)]),
    # a placeholder unmasked into two words: each takes the placeholder's links
    (_rep("<NAME1_PERSON> assina", [(0, 14, 14)]), _rep("Bento Queiroga assina", []),
     [(0, 0), (0, 1), (1, 2)], [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)]),
    # a placeholder of another length: the words after it keep their links
    (_rep("<NAME1_PERSON> e a Lusomar", [(0, 14, 14)]),
     _rep("<NAME1_PERSON> e a <NAME2_ORGANIZATION>", [(0, 14, 14), (19, 26, 20)]),
     [(0, 0), (1, 1), (3, 3)], [(0, 0), (1, 1), (3, 3)]),
])
def test_the_runs_links_are_fitted_to_new_tokens(old, new, links, fitted):
    assert fit_links(old, new, links) == fitted
