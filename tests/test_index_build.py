"""Building the index: the one-pass postings equal Whoosh's own, and an index written in several parts (one
per process) holds what one process writes, in the same order."""

from __future__ import annotations

import json
import shutil

import pytest
from paranon.search_portal import indexer
from paranon.search_portal.indexer import FoldedText, build_index, folded_analyzer
from paranon.search_portal.search import Searcher
from whoosh import index as windex
from whoosh.fields import TEXT

from paranon.errors import InputError

TEXTS = [  # what a pair's side looks like
    "O CONTRATO de <NAME1_ORGANIZATION_COMPANY> foi assinado em <NAME2_DATE>.",
    "Ação, acção e AÇÃO: a mesma palavra três vezes; a a a.",
    "The lessee's well-known rock’n’roll ex-partner paid 1.234,56 EUR.",
    "",
    "   ",
    "de de de de de de de de de de de de de de de de de de de de",
    "Überprüfung — naïve café; Straße 9",
]


@pytest.mark.parametrize("text", TEXTS)
def test_folded_text_makes_the_postings_whoosh_makes(text):
    ours = list(FoldedText().index(text))
    whoosh = list(TEXT(analyzer=folded_analyzer(), phrase=True).index(text))
    assert sorted(ours) == sorted(whoosh)


def _snapshot(out):
    """Everything the portal reads from an index: the records in order and the side files."""
    folder = (out / "index").resolve()
    with windex.open_dir(str(folder)).searcher() as s:
        records = [s.stored_fields(d)["rec"] for d in sorted(s.document_numbers(), key=lambda d: s.stored_fields(d)
                   ["id"])]
        orders = sorted((s.stored_fields(d)["id"], o) for d, o in zip(range(s.doc_count_all()),
                        s.reader().column_reader("order"), strict=True))
    files = {name: json.loads((folder / name).read_text(encoding="utf-8"))
             for name in ("translations.json", "stems.json")}
    return records, orders, files


@pytest.mark.parametrize("cores", [2, 3])
def test_an_index_written_in_parts_is_the_index_one_process_writes(sample_out, tmp_path, monkeypatch, cores):
    one, many = tmp_path / "one", tmp_path / "many"
    for out in (one, many):
        out.mkdir()
        shutil.copy(sample_out / "corpus.jsonl", out / "corpus.jsonl")
    monkeypatch.setattr(indexer.os, "cpu_count", lambda: 1)
    build_index(one, backend="whoosh")
    monkeypatch.setattr(indexer.os, "cpu_count", lambda: cores)
    build_index(many, backend="whoosh")
    assert len(windex.open_dir(str((many / "index").resolve()))._segments()) == cores
    assert _snapshot(one) == _snapshot(many)
    for q, lang in (("conta", "pt"), ('"the account"', "en"), ("<NAME_PERSON>", "both")):
        a, b = Searcher(one, cache_size=0).search(q, lang), Searcher(many, cache_size=0).search(q, lang)
        assert [h["id"] for h in a["hits"]] == [h["id"] for h in b["hits"]]
        assert a["total"] == b["total"] and a["translations"] == b["translations"]


@pytest.mark.parametrize("backend", ["whoosh", "tantivy"])
@pytest.mark.parametrize("bad_line", [3, 1])
def test_a_damaged_corpus_line_is_named(sample_out, tmp_path, monkeypatch, bad_line, backend):
    lines = (sample_out / "corpus.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    lines[bad_line - 1] = '{"id": "broken", "src": \n'
    (tmp_path / "corpus.jsonl").write_text("".join(lines), encoding="utf-8")
    monkeypatch.setattr(indexer.os, "cpu_count", lambda: 2)
    with pytest.raises(InputError, match=rf"corpus\.jsonl:{bad_line}: not a paranon record"):
        build_index(tmp_path, backend=backend)
    assert not list(tmp_path.glob("index*"))  # nothing half-built is left


@pytest.mark.parametrize("backend", ["whoosh", "tantivy"])
def test_a_failed_rebuild_keeps_the_index_there_was(sample_out, tmp_path, monkeypatch, backend):
    shutil.copy(sample_out / "corpus.jsonl", tmp_path / "corpus.jsonl")
    built = build_index(tmp_path, backend=backend)
    with open(tmp_path / "corpus.jsonl", "a", encoding="utf-8") as fh:
        fh.write("not json\n")
    monkeypatch.setattr(indexer.os, "cpu_count", lambda: 2)
    with pytest.raises(InputError, match="not a paranon record"):
        build_index(tmp_path, backend=backend)
    assert (tmp_path / "index").resolve() == built and [p.name for p in tmp_path.glob("index-*")] == [built.name]
    assert Searcher(tmp_path, cache_size=0).search("conta", "pt")["total"] > 0


def test_a_searcher_copies_no_segment_into_memory(sample_out, tmp_path_factory):
    """Whoosh's mapped segments are copied whole into each reader; the portal opens a searcher per thread and
    the build opens three, so an index is opened read in place. The sample's segments are about 1 MB."""
    import tracemalloc

    from paranon.search_portal.indexer import open_index

    from .test_portal import indexed_with

    folder = (indexed_with(sample_out, tmp_path_factory, "whoosh") / "index").resolve()
    segments = sum(f.stat().st_size for f in folder.glob("*.seg"))
    for opener, copies in ((lambda: windex.open_dir(str(folder)), True), (lambda: open_index(folder), False)):
        ix = opener()
        tracemalloc.start()
        with ix.searcher() as s:
            assert s.doc_count() > 0
            held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert (held > segments / 2) is copies, (held, segments)


SIDE_FILES = ["stems.json", "translations.json", "stats.json", "words/src.txt", "words/tgt.txt"]


@pytest.mark.parametrize("cores", [1, 3])
def test_both_backends_write_the_same_side_files(sample_out, tmp_path, monkeypatch, cores):
    """Stems, translations table, corpus figures and vocabulary come from the corpus, not from the engine."""
    monkeypatch.setattr(indexer.os, "cpu_count", lambda: cores)
    folders = {}
    for backend in ("whoosh", "tantivy"):
        out = tmp_path / backend
        out.mkdir()
        shutil.copy(sample_out / "corpus.jsonl", out / "corpus.jsonl")
        folders[backend] = build_index(out, backend=backend)
        assert json.loads((folders[backend] / "backend.json").read_text())["backend"] == backend
    for name in SIDE_FILES:
        assert (folders["whoosh"] / name).read_bytes() == (folders["tantivy"] / name).read_bytes(), name


@pytest.mark.parametrize("backend,error", [("lucene", "unknown backend 'lucene'")])
def test_an_unknown_backend_is_named(sample_out, tmp_path, backend, error):
    shutil.copy(sample_out / "corpus.jsonl", tmp_path / "corpus.jsonl")
    with pytest.raises(InputError, match=error):
        build_index(tmp_path, backend=backend)
