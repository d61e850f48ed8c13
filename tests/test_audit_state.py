"""An audit that starts from the state the previous one kept (``paranon apply``'s) finds what a full audit finds,
whatever changed in between: a record, an original that came or went, an allowed string; and it matches again
only the units of text that may have changed."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from paranon.audit import audit

from .test_audit import add_original

PERSON = "Quitéria Lopes Zorrilho"  # planted: neither name nor surname is in the sample's key store
SURNAME = "Zorrilho"
LINE = json.dumps({"id": "planted", "doc": "planted", "src": f"Assina o Sr. {PERSON}. Testemunha: Sr. {SURNAME}.",
                   "tgt": "Signed."}, ensure_ascii=False) + "\n"


def cfg(allow=()):
    return {"anonymize": {"allow": list(allow), "allow_files": []}}


def plant_line(out):
    with open(out / "corpus.jsonl", "a", encoding="utf-8") as fh:
        fh.write(LINE)


def rewrite_first_record(out):
    """The first record's source text written again with the planted name in it (what apply does to a record)."""
    lines = (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    rec = json.loads(lines[0])
    rec["src"] += f" {PERSON}"
    lines[0] = json.dumps(rec, ensure_ascii=False) + "\n"
    (out / "corpus.jsonl").write_text("".join(lines), encoding="utf-8")


def drop_original(out, original):
    db = sqlite3.connect(out / "keys.sqlite")
    db.execute("DELETE FROM mentions WHERE original = ?", (original,))
    db.commit()
    db.close()


def nothing(out):
    pass


# what the outputs hold when the state is kept, what changes after, the allowed strings before and after
CASES = [
    ("nothing changed", lambda o: add_original(o, PERSON), nothing, (), ()),
    ("a record written again holds an original", lambda o: add_original(o, PERSON), rewrite_first_record, (), ()),
    ("a new original, in a file that did not change", plant_line, lambda o: add_original(o, PERSON), (), ()),
    ("a new shorter original inside a known one", lambda o: (plant_line(o), add_original(o, PERSON)),
     lambda o: add_original(o, SURNAME), (), ()),
    ("a longer original gone: the shorter one it hid is a hit", lambda o: (plant_line(o), add_original(o, PERSON),
                                                                          add_original(o, SURNAME)),
     lambda o: drop_original(o, PERSON), (), ()),
    ("a string allowed around an original", lambda o: (plant_line(o), add_original(o, SURNAME)), nothing, (),
     (PERSON,)),
    ("an allowed string taken back", lambda o: (plant_line(o), add_original(o, SURNAME)), nothing, (PERSON,), ()),
]


def _result(res):
    return res.to_json() | {"seconds": 0}, res.forms


@pytest.mark.parametrize("before, after, allow_before, allow_after", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_audit_from_the_state_is_a_full_audit(sample_out, tmp_path, monkeypatch, before, after, allow_before,
                                                  allow_after):
    from paranon.audit_scan import Scanner

    out = tmp_path / "out"
    shutil.copytree(sample_out, out, symlinks=True)
    state = tmp_path / "audit-state.pkl"
    before(out)
    first = audit(out, cfg(allow_before), workers=1, state=state)
    after(out)
    matched: list[str] = []
    fill = Scanner._fill
    monkeypatch.setattr(Scanner, "_fill", lambda self, new: (matched.extend(new), fill(self, new))[1])
    got = audit(out, cfg(allow_after), workers=1, state=state)
    monkeypatch.undo()
    assert _result(got) == _result(audit(out, cfg(allow_after), workers=1))
    assert state.stat().st_mode & 0o077 == 0, "the state holds originals: owner-only"
    units = sum(1 for line in open(out / "corpus.jsonl", encoding="utf-8"))
    assert len(matched) < units / 2, "most units taken from the state"
    if after is nothing and allow_before == allow_after:
        assert not matched and _result(got) == _result(first)
    else:
        assert _result(got) != _result(first), "the change shows in the result"


def test_a_state_of_other_text_is_matched_afresh(sample_out, tmp_path):
    """The state is keyed by the text of each unit: a state from another output folder finds nothing wrong."""
    out = tmp_path / "out"
    shutil.copytree(sample_out, out, symlinks=True)
    state = tmp_path / "audit-state.pkl"
    other = tmp_path / "other"
    other.mkdir()
    (other / "corpus.jsonl").write_text(LINE, encoding="utf-8")
    shutil.copy(out / "keys.sqlite", other / "keys.sqlite")
    audit(other, cfg(), workers=1, state=state)
    add_original(out, PERSON)
    plant_line(out)
    assert _result(audit(out, cfg(), workers=1, state=state)) == _result(audit(out, cfg(), workers=1))
    assert not audit(out, cfg(), workers=1, state=state).clean
