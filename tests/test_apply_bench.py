"""``bench/apply.py``'s review: 20 fixed decisions a ``review.yaml`` holds as written, and the documents each
decision's strings reach; and the checkpoint files apply writes without waiting for the disk, synced after."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import pytest

from paranon.review import Decisions
from paranon.workdir import WorkDir

BENCH = Path(__file__).resolve().parent.parent / "bench" / "apply.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_apply", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_bench_review_is_twenty_decisions_a_review_file_keeps(bench, tmp_path):
    assert bench.decision_count(bench.DECISIONS) == 20
    Decisions(**bench.DECISIONS).save(tmp_path)
    assert Decisions.load(tmp_path) == Decisions(**bench.DECISIONS)


def _tu(doc: str, src: str, tgt: str) -> str:
    return (f'<tu><prop type="doc">{doc}</prop><tuv xml:lang="pt"><seg>{src}</seg></tuv>'
            f'<tuv xml:lang="en"><seg>{tgt}</seg></tuv></tu>\n')


@pytest.mark.parametrize("units, decisions, reached", [
    # an allowed form in two documents of three, written in other cases and accents
    ([("A", "O Ministério das Finanças decide.", "x"), ("B", "MINISTERIO DAS FINANCAS", "y"), ("C", "nada", "z")],
     {"allow": ["Ministério das Finanças"]}, [2]),
    # a masked span found on the target side only; a word inside a longer word is not the span
    ([("A", "x", "paid to BLC today"), ("B", "BLCX", "y")], {"deny": {"ORGANIZATION_COMPANY": ["BLC"]}}, [1]),
    # a merge reaches the documents holding either form, once each
    ([("A", "Esteves assinou.", "x"), ("A", "Lúcia Oliveira Esteves", "y"), ("B", "Esteves", "z")],
     {"same_entity": [["Lúcia Oliveira Esteves", "Esteves"]]}, [2]),
])
def test_the_bench_counts_the_documents_each_decision_reaches(bench, tmp_path, units, decisions, reached):
    tmx = tmp_path / "tm.tmx"
    tmx.write_text("<tmx><body>\n" + "".join(_tu(*u) for u in units) + "</body></tmx>\n", encoding="utf-8")
    d = {"allow": [], "allow_in_documents": {}, "deny": {}, "same_entity": [], "different_entities": []} | decisions
    got = bench.reach(tmx, d)
    assert [r["documents"] for r in got["by_decision"] if r["kind"] != "allow_in_documents"] == reached


def test_sync_since_flushes_the_files_changed_since_then(tmp_path):
    work = WorkDir(tmp_path)
    work.dump("old.pkl", 1)
    old = tmp_path / "old.pkl"
    os.utime(old, ns=(time.time_ns() - 10**10, time.time_ns() - 10**10))
    mark = time.time_ns()
    work.dump("new.pkl", [2], sync=False)
    work.write_json("new.json", {"a": 1})
    assert work.sync_since(mark) == 2
    assert work.load("new.pkl") == [2]
