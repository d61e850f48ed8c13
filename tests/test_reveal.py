"""``paranon reveal``: each placeholder of a unit with the original it stands for."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest


def reveal(*args):
    return subprocess.run([sys.executable, "-m", "paranon.cli", "reveal", *map(str, args)], capture_output=True,
                          text=True)


def units_with(sample_out, category: str) -> dict:
    for line in open(sample_out / "corpus.jsonl", encoding="utf-8"):
        rec = json.loads(line)
        if any(m["category"] == category for m in rec["src_mentions"]) and rec["tgt_mentions"]:
            return rec
    raise AssertionError(category)


@pytest.mark.parametrize("category", ["PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE"])
def test_each_placeholder_is_listed_with_its_original(sample_out, category):
    rec = units_with(sample_out, category)
    out = reveal(sample_out, "--id", rec["id"])
    assert out.returncode == 0
    listed = out.stdout.split("placeholders:\n")[1].splitlines()
    db = sqlite3.connect(sample_out / "keys.sqlite")
    rows = list(db.execute("SELECT side, start, end, original FROM mentions WHERE unit = ?", (rec["id"],)))
    assert len(listed) == len(rows) == len(rec["src_mentions"]) + len(rec["tgt_mentions"])
    for side, start, end, original in rows:
        placeholder, lang = rec[side][start:end], rec[f"{side}_lang"]
        assert any(line.split()[:2] == [placeholder, lang] and original in line for line in listed), placeholder
    assert listed[0].split()[1] == rec["src_lang"]  # source side first


@pytest.mark.parametrize("unit", ["no-such-unit", "CONTRATO-2023-001:99999", "CONTRATO-2023-001"])
def test_unknown_units_are_one_line_errors(sample_out, unit):
    r = reveal(sample_out, "--id", unit)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert repr(unit) in r.stderr and "corpus.jsonl" in r.stderr


def test_a_folder_without_keys_says_so(sample_out, tmp_path):
    (tmp_path / "corpus.jsonl").write_text((sample_out / "corpus.jsonl").read_text(encoding="utf-8").split("\n")[0])
    rec = json.loads((tmp_path / "corpus.jsonl").read_text(encoding="utf-8"))
    r = reveal(tmp_path, "--id", rec["id"])
    assert r.returncode == 2 and "keys.sqlite" in r.stderr and r.stderr.count("\n") == 1
