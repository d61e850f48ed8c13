"""After ``paranon apply`` the index is updated in place (``search_portal/index_update.py``): its records,
searches and side files are those of an index built afresh from the same ``corpus.jsonl``, and it is a new
folder swapped in (the one a reader had open is left whole until the swap)."""

from __future__ import annotations

import json
import shutil

import pytest

from paranon.apply import apply_decisions
from paranon.audit import audit
from paranon.pipeline import run
from paranon.review import Decisions
from paranon.search_portal.backends import BACKEND_FILE, open_backend
from paranon.search_portal.index_update import STATE_FILE
from paranon.search_portal.indexer import build_index
from whoosh import query as wq

from .test_apply import MISSED, _decisions, small_chunks

SIDE_FILES = ["stems.json", "translations.json", "stats.json", "words/src.txt", "words/tgt.txt", "groups.bin"]


def with_index(backend: str = "tantivy"):
    c = small_chunks()
    c["index"]["enabled"] = True
    c["index"]["backend"] = backend
    return c


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    from .conftest import SAMPLE

    folder = tmp_path_factory.mktemp("apply-index")
    tm = folder / "tm.tmx"
    tm.write_text(SAMPLE.read_text(encoding="utf-8").replace("celebrado entre", f"({MISSED}) celebrado entre", 1),
                  encoding="utf-8")
    out = folder / "out"
    run(tm, out, with_index(), quiet=True)
    assert (out / ".checkpoint" / STATE_FILE).exists()
    return out


def _content(folder):
    """Every stored record and packed tokens in corpus order, and for a search of every seventh index word and
    two categories: its hits, how many are distinct pairs and how many a listing by ``rank`` counts (summed
    over the index's parts: an updated index keeps the parts the run cut, a fresh build cuts its own)."""
    ix = open_backend(folder)
    view = ix.view()
    n = ix.n_pairs
    words = (folder / "words" / "src.txt").read_text(encoding="utf-8").split("\n")
    words += (folder / "words" / "tgt.txt").read_text(encoding="utf-8").split("\n")
    searches = {}
    for field, word in [("src", w) for w in words[::7]] + [("categories", c) for c in ("PERSON", "ADDRESS")]:
        q = wq.Term(field, word)
        searches[field, word] = (view.docs(q).tolist(), sum(view.leads(q)), sum(view.counts(q, "rank")))
    return {"records": [view.record(k) for k in range(n)], "searches": searches,
            "side": {f: (folder / f).read_bytes() for f in SIDE_FILES}}


@pytest.mark.parametrize("kind", ["not an entity, everywhere", "change category", "mask this span", "several at once"])
def test_the_updated_index_is_a_fresh_builds(indexed, tmp_path, kind):
    out = tmp_path / "out"
    shutil.copytree(indexed, out, symlinks=True)
    before = (out / "index").resolve()
    decisions: Decisions = _decisions(indexed)[kind]
    decisions.save(out)
    report = apply_decisions(out, decisions.overlay(with_index()))
    updated = (out / "index").resolve()
    assert updated != before and not before.exists(), "a new folder swapped in, the old one gone"
    meta = json.loads((updated / BACKEND_FILE).read_text(encoding="utf-8"))
    assert 0 < meta["updated_pairs"] < report["units"]["written"], "only the changed pairs indexed again"
    got = _content(updated)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(out / "corpus.jsonl", fresh / "corpus.jsonl")
    assert got == _content(build_index(fresh, backend="tantivy"))
    # and the audit at the end of apply is a full audit's
    full = audit(out, decisions.overlay(with_index())).to_json()
    for a in (full, report["audit"]):
        a.pop("seconds")
        a["files_scanned"] = [f for f in a["files_scanned"] if f != ".paranon.lock"]  # apply holds it
    assert report["audit"] == full


def test_an_update_after_an_update(indexed, tmp_path):
    """The counts an update leaves serve the next update (the decision taken back)."""
    out = tmp_path / "out"
    shutil.copytree(indexed, out, symlinks=True)
    decisions = _decisions(indexed)["not an entity, everywhere"]
    decisions.save(out)
    apply_decisions(out, decisions.overlay(with_index()))
    Decisions().save(out)
    apply_decisions(out, Decisions().overlay(with_index()))
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(out / "corpus.jsonl", fresh / "corpus.jsonl")
    assert _content((out / "index").resolve()) == _content(build_index(fresh, backend="tantivy"))


def test_whoosh_is_built_afresh(indexed, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(indexed, out, symlinks=True)
    decisions = _decisions(indexed)["mask this span"]
    decisions.save(out)
    apply_decisions(out, decisions.overlay(with_index("whoosh")))
    meta = json.loads(((out / "index").resolve() / BACKEND_FILE).read_text(encoding="utf-8"))
    assert meta["backend"] == "whoosh" and "updated_pairs" not in meta
    assert not (out / ".checkpoint" / STATE_FILE).exists()
