"""Reading and writing translation memories: real DGT files, round trips, and every kind of bad input."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from paranon.corpora.formats import InputError, Problems, TmxWriter, read_corpus
from paranon.corpora.formats.common import decode_hex_meta, lang_matches
from paranon.corpora.formats.tabular import JsonlWriter

from .conftest import SAMPLE, SHARED, needs_shared

DGT = SHARED / "dgt-tm-pt-en" / "original_tmx"


@pytest.mark.parametrize(("code", "wanted", "expected"), [
    ("pt", "pt", True), ("pt-PT", "pt", True), ("PT-PT", "pt", True), ("pt_BR", "pt", True),
    ("EN-GB", "en", True), ("EN-UK", "en", True), ("en", "en", True), ("es-ES", "pt", False),
    ("pt-BR", "pt-PT", False), ("PT-PT", "pt-pt", True),
])
def test_language_codes_match_case_insensitively_with_regions(code, wanted, expected):
    assert lang_matches(code, wanted) is expected


def test_hex_meta_codes_become_characters():
    assert decode_hex_meta("o &'93;CLIENTE&'94; e a &'92;parte") == "o “CLIENTE” e a ’parte"


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


TMX_HEAD = '<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="pt"/><body>'


def test_utf16_crlf_tmx_with_old_lang_attribute(tmp_path):
    text = ('<?xml version="1.0" encoding="UTF-16LE"?>\r\n<tmx version="1.1"><header/><body>\r\n'
            '<tu><prop type="doc">D1</prop><tuv lang="EN-GB"><seg>Hello</seg></tuv>'
            '<tuv lang="DE-DE"><seg>Hallo</seg></tuv><tuv lang="PT-PT"><seg>Olá</seg></tuv></tu>\r\n</body></tmx>')
    p = write(tmp_path, "a.tmx", b"\xff\xfe" + text.encode("utf-16-le"))
    pairs = list(read_corpus(p, "pt", "en", Problems()))
    assert [(x.src, x.tgt, x.doc) for x in pairs] == [("Olá", "Hello", "D1")]


def test_inline_markup_survives_tmx_jsonl_tmx_round_trip(tmp_path):
    seg = 'O <bpt i="1">&lt;b&gt;</bpt>CLIENTE<ept i="1">&lt;/b&gt;</ept> paga <ph x="2"/> e <hi type="x">nada</hi>.'
    src = TMX_HEAD + f'<tu tuid="u1"><prop type="doc">D</prop><note>n1</note><tuv xml:lang="pt-PT"><seg>{seg}</seg></tuv>' \
        '<tuv xml:lang="en-GB"><seg>The <ph x="2"/> pays.</seg></tuv></tu></body></tmx>'
    p = write(tmp_path, "a.tmx", src.encode())
    pair = next(read_corpus(p, "pt", "en", Problems()))
    assert pair.src == "O CLIENTE paga  e nada."
    assert pair.meta["notes"] == ["n1"]
    jl = io.StringIO()
    JsonlWriter(jl).write(pair)
    back = next(read_corpus(write(tmp_path, "a.jsonl", jl.getvalue().encode()), "pt", "en", Problems()))
    out = io.StringIO()
    w = TmxWriter(out, "pt-PT", "en-GB")
    w.write(back)
    w.close()
    assert seg in out.getvalue()
    again = next(read_corpus(write(tmp_path, "b.tmx", out.getvalue().encode()), "pt", "en", Problems()))
    assert (again.src, again.tgt, again.src_inline, again.meta["notes"]) == (pair.src, pair.tgt, pair.src_inline, ["n1"])


@pytest.mark.parametrize(("body", "reason"), [
    ('<tu><tuv xml:lang="pt"><seg>Só português</seg></tuv></tu>', "missing en side"),
    ('<tu><tuv xml:lang="pt"><seg>  </seg></tuv><tuv xml:lang="en"><seg>x</seg></tuv></tu>', "empty pt segment"),
])
def test_bad_units_are_counted_and_named(tmp_path, body, reason):
    good = '<tu><tuv xml:lang="pt"><seg>Bom</seg></tuv><tuv xml:lang="en"><seg>Good</seg></tuv></tu>'
    p = write(tmp_path, "a.tmx", (TMX_HEAD + body + good + "</body></tmx>").encode())
    probs = Problems()
    assert len(list(read_corpus(p, "pt", "en", probs))) == 1
    assert probs.reasons == {reason: 1}
    assert probs.examples[0].startswith("file-0001:1:") and probs.files == {str(p): "file-0001"}  # no path in the report
    with pytest.raises(InputError, match=reason):
        list(read_corpus(p, "pt", "en", Problems(strict=True)))


def test_malformed_xml_is_reported_with_its_line(tmp_path):
    p = write(tmp_path, "bad.tmx", (TMX_HEAD + '\n<tu><tuv xml:lang="pt"><seg>a</seg></tuv>\n<tuv xml:lang="en"><seg>b</tuv></tu></body></tmx>').encode())
    probs = Problems()
    list(read_corpus(p, "pt", "en", probs))
    assert probs.reasons["malformed XML"] == 1
    assert "file-0001:3" in probs.examples[0]


def test_tsv_by_column_names_and_bad_lines(tmp_path):
    data = "doc_id\ttu_index\tpt\ten\nD\t1\tOlá\tHello\nD\t2\tsó uma coluna\n".encode() + b"D\t3\t\xff\xfe\tx\n"
    p = write(tmp_path, "a.tsv", data)
    probs = Problems()
    pairs = list(read_corpus(p, "pt", "en", probs))
    assert [(x.id, x.src) for x in pairs] == [("D:1", "Olá")]
    assert probs.reasons == {"wrong number of columns": 1, "bad encoding": 1}
    assert any("file-0001:4" in e for e in probs.examples)
    with pytest.raises(InputError, match="no column named"):
        list(read_corpus(p, "pt", "en", Problems(), src_col="nope"))


def test_moses_files_with_different_line_counts(tmp_path):
    write(tmp_path, "c.pt", "um\ndois\ntrês\n".encode())
    write(tmp_path, "c.en", b"one\ntwo\n")
    probs = Problems()
    pairs = list(read_corpus(tmp_path / "c.pt", "pt", "en", probs, fmt="moses"))
    assert [p.tgt for p in pairs] == ["one", "two"]
    assert probs.reasons == {"line counts differ": 1}


def test_bundled_sample_has_300_pairs_in_several_documents():
    pairs = list(read_corpus(SAMPLE, "pt", "en", Problems(strict=True)))
    assert len(pairs) >= 300
    assert len({p.doc for p in pairs}) >= 5


@needs_shared(DGT)
def test_dgt_originals_give_one_pair_per_unit_with_both_languages():
    from lxml import etree

    for f in sorted(DGT.glob("*.tmx"))[:6]:
        tree = etree.parse(str(f))
        both = sum(1 for tu in tree.iter("tu")
                   if {"PT-PT", "EN-GB"} <= {t.get("lang") for t in tu.iter("tuv")})
        probs = Problems()
        pairs = list(read_corpus(f, "pt", "en", probs))
        assert len(pairs) == both
        assert all(p.doc == f.stem for p in pairs)
        assert probs.skipped == sum(1 for _ in tree.iter("tu")) - both


def _tu(k: int, doc: str | None) -> str:
    prop = f'<prop type="doc">{doc}</prop>' if doc else ""
    return (f'<tu>{prop}<tuv xml:lang="pt"><seg>Frase {k}.</seg></tuv>'
            f'<tuv xml:lang="en"><seg>Sentence {k}.</seg></tuv></tu>')


@pytest.mark.parametrize(("fmt", "name", "make"), [
    ("tmx", "tm.tmx", lambda n: TMX_HEAD + "".join(_tu(k, None) for k in range(n)) + "</body></tmx>"),
    ("tsv", "tm.tsv", lambda n: "pt\ten\n" + "".join(f"Frase {k}.\tSentence {k}.\n" for k in range(n))),
    ("jsonl", "tm.jsonl", lambda n: "".join(f'{{"src": "Frase {k}.", "tgt": "Sentence {k}."}}\n' for k in range(n))),
])
def test_a_file_without_document_ids_is_cut_into_pseudo_documents(tmp_path, fmt, name, make):
    p = write(tmp_path, name, make(25).encode())
    pairs = list(read_corpus(p, "pt", "en", Problems(), doc_pairs=10))
    assert [x.doc for x in pairs] == ["tm"] * 10 + ["tm#2"] * 10 + ["tm#3"] * 5
    assert [x.id for x in pairs][:2] != [x.id for x in pairs][10:12]  # unit ids do not change with the blocks


def test_moses_files_are_cut_into_pseudo_documents(tmp_path):
    write(tmp_path, "c.pt", "".join(f"Frase {k}.\n" for k in range(12)).encode())
    write(tmp_path, "c.en", "".join(f"Sentence {k}.\n" for k in range(12)).encode())
    pairs = list(read_corpus(tmp_path / "c", "pt", "en", Problems(), fmt="moses", doc_pairs=5))
    assert [x.doc for x in pairs] == ["c"] * 5 + ["c#2"] * 5 + ["c#3"] * 2
    assert pairs[7].id == "c:8"


def test_units_that_name_their_document_keep_it_and_the_others_are_counted_apart(tmp_path):
    units = [_tu(0, "D1"), _tu(1, None), _tu(2, "D1"), _tu(3, None), _tu(4, None), _tu(5, "D2")]
    p = write(tmp_path, "m.tmx", (TMX_HEAD + "".join(units) + "</body></tmx>").encode())
    pairs = list(read_corpus(p, "pt", "en", Problems(), doc_pairs=2))
    assert [x.doc for x in pairs] == ["D1", "m", "D1", "m", "m#2", "D2"]


def test_a_file_within_the_document_size_keeps_its_name(tmp_path):
    p = write(tmp_path, "small.tsv", ("pt\ten\n" + "".join(f"a{k}\tb{k}\n" for k in range(5))).encode())
    assert {x.doc for x in read_corpus(p, "pt", "en", Problems())} == {"small"}
    with pytest.raises(InputError, match="document_pairs"):
        list(read_corpus(p, "pt", "en", Problems(), doc_pairs=0))
