"""After ``paranon apply`` the index is updated in place (``search_portal/index_update.py``): its records,
searches and side files are those of an index built afresh from the same ``corpus.jsonl``, and it is a new
folder swapped in (the one a reader had open is left whole until the swap)."""

from __future__ import annotations

import json
import shutil

import pytest
from paranon.search_portal.backends import BACKEND_FILE, open_backend
from paranon.search_portal.index_update import STATE_FILE
from paranon.search_portal.indexer import build_index
from whoosh import query as wq

from paranon.apply import apply_decisions
from paranon.audit import audit
from paranon.review import Decisions

from .test_apply import _decisions, run_sample, small_chunks

SIDE_FILES = ["stems.json", "translations.json", "stats.json", "words/src.txt", "words/tgt.txt", "groups.bin"]


def with_index(backend: str = "tantivy"):
    c = small_chunks()
    c["index"]["enabled"] = True
    c["index"]["backend"] = backend
    return c


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    out = run_sample(tmp_path_factory.mktemp("apply-index"), with_index())
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


def _nothing_deleted_kept(folder) -> bool:
    """No segment holds a deleted document (its stored record and terms would stay in the files), and every
    term of the index's dictionaries is a word of its lexicon."""
    import tantivy

    words = {side: set((folder / "words" / f"{side}.txt").read_text(encoding="utf-8").split("\n"))
             for side in ("src", "tgt")}
    for part in sorted((folder / "tantivy").glob("part-*")):
        segments = json.loads((part / "meta.json").read_text(encoding="utf-8"))["segments"]
        if any(seg.get("deletes") for seg in segments):
            return False
        searcher = tantivy.Index.open(str(part)).searcher()
        if any(t not in words[side] for side in words for t, _ in searcher.terms_with_prefix(side, "")):
            return False
    return True


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
    assert _nothing_deleted_kept(updated)
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


def test_a_part_without_a_change_is_kept(indexed, tmp_path, monkeypatch):
    """With four index parts, a change to one pair of a text of its own (no duplicate group moves) indexes its
    part again and keeps the others' files (hard links to the live index's)."""
    import numpy as np
    from paranon.search_portal.index_update import update_index

    monkeypatch.setattr("os.cpu_count", lambda: 4)
    out = tmp_path / "out"
    shutil.copytree(indexed, out, symlinks=True)
    state = out / ".checkpoint" / STATE_FILE
    before = build_index(out, backend="tantivy", state=state)
    leads = np.fromfile(before / "groups.bin", dtype=np.int32)
    alone = [n for n in range(len(leads)) if leads[n] == n and (leads == n).sum() == 1]
    lines = (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    rec = json.loads(lines[alone[-1]])
    rec["src"] += " palavranova"  # after the last token: the tokens and links stay as they are
    lines[alone[-1]] = json.dumps(rec, ensure_ascii=False) + "\n"
    (out / "corpus.jsonl").write_text("".join(lines), encoding="utf-8")
    kept = {p.name: p.stat().st_ino for p in (before / "tantivy").rglob("*") if p.is_file()}
    updated = update_index(out, state)
    meta = json.loads((updated / BACKEND_FILE).read_text(encoding="utf-8"))
    assert (meta["parts"], meta["parts_rebuilt"], meta["updated_pairs"]) == (4, 1, 1)
    assert sum(p.stat().st_ino == kept.get(p.name) for p in (updated / "tantivy").rglob("*") if p.is_file()) > 3
    assert "palavranova" in (updated / "words" / "src.txt").read_text(encoding="utf-8").split("\n")
    assert _nothing_deleted_kept(updated)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(out / "corpus.jsonl", fresh / "corpus.jsonl")
    assert _content(updated) == _content(build_index(fresh, backend="tantivy"))


@pytest.mark.parametrize("cache, parsed", [("kept", "the changed line"), ("damaged", "every line"),
                                           ("missing", "every line")])
def test_a_part_indexed_again_parses_only_the_lines_it_does_not_know(indexed, tmp_path, monkeypatch, cache, parsed):
    """A part keeps each line's fields (``index_prep``, by the line's digest): indexed again, it parses and
    folds only the lines whose fields it does not hold; a damaged or missing file holds none. Either way the
    index is a fresh build's."""
    from paranon.search_portal import tantivy_index
    from paranon.search_portal.index_prep import prep_folder
    from paranon.search_portal.index_update import update_index

    monkeypatch.setattr("os.cpu_count", lambda: 1)  # one part, indexed in this process
    out = tmp_path / "out"
    shutil.copytree(indexed, out, symlinks=True)
    state = out / ".checkpoint" / STATE_FILE
    build_index(out, backend="tantivy", state=state)
    (kept,) = sorted(prep_folder(state).glob("part-*.pkl"))
    if cache == "damaged":
        kept.write_bytes(b"not a pickle")
    elif cache == "missing":
        kept.unlink()
    lines = (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    rec = json.loads(lines[5])
    rec["src"] += " palavranova"
    lines[5] = json.dumps(rec, ensure_ascii=False) + "\n"
    (out / "corpus.jsonl").write_text("".join(lines), encoding="utf-8")
    seen = []
    parse = tantivy_index.parse_record
    monkeypatch.setattr(tantivy_index, "parse_record", lambda c, n, line: seen.append(n) or parse(c, n, line))
    updated = update_index(out, state)
    assert seen == ([5] if parsed == "the changed line" else list(range(len(lines))))
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(out / "corpus.jsonl", fresh / "corpus.jsonl")
    assert _content(updated) == _content(build_index(fresh, backend="tantivy"))
