"""Nothing private outside keys.sqlite: a name planted in each channel the input has besides its segments
(notes, props, attributes, tuids, inline tags, file names, TSV columns, JSONL meta) reaches no public file
and no portal answer; ids are opaque and ``reveal`` still finds a unit; input placeholders never collide."""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest
from paranon.corpora.model import Inline, SegmentPair

from paranon.audit import PRIVATE
from paranon.cli import main
from paranon.config import load_config
from paranon.pipeline import run
from paranon.privacy import InputPlaceholders, MetadataPolicy, OpaqueIds, prepare_metadata

PLAIN = [
    ("O contrato foi celebrado em Lisboa.", "The contract was concluded in Lisbon."),
    ("As partes acordam o seguinte.", "The parties agree as follows."),
    ("O prazo de pagamento é de trinta dias.", "The payment term is thirty days."),
    ("A presente cláusula entra em vigor hoje.", "This clause enters into force today."),
]
SECRET = "Quitéria Esteves Barbosa"  # the planted name: a person with a first name and two surnames
SECRET_PARTS = ["Quitéria", "Esteves Barbosa", "qesteves"]


def _tmx(units: list[str]) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="pt" datatype="plaintext" '
            'segtype="sentence" adminlang="en" o-tmf="x" creationtool="t" creationtoolversion="1"/><body>\n'
            + "\n".join(units) + "\n</body></tmx>\n")


def _tu(src: str, tgt: str, head: str = "", attrs: str = "", tuv_src: str = "") -> str:
    return (f'<tu{attrs}>{head}<tuv xml:lang="pt-PT">{tuv_src}<seg>{src}</seg></tuv>'
            f'<tuv xml:lang="en-GB"><seg>{tgt}</seg></tuv></tu>')


def _plain_tus() -> list[str]:
    return [_tu(s, t) for s, t in PLAIN]


# one TMX per leak channel: (file name, units)
TMX_CHANNELS = {
    "note": ("tm.tmx", [_tu(*PLAIN[0], head=f"<note>Cliente: Dra. {SECRET}, NIF 123456789</note>"), *_plain_tus()]),
    "prop": ("tm.tmx", [_tu(*PLAIN[0], head=f'<prop type="x-project">Parecer para a Dra. {SECRET}</prop>'), *_plain_tus()]),
    "creationid": ("tm.tmx", [_tu(*PLAIN[0], attrs=' creationid="qesteves" changeid="qesteves"'), *_plain_tus()]),
    "tuid": ("tm.tmx", [_tu(*PLAIN[0], attrs=' tuid="Contrato_Quitéria_Esteves_Barbosa:1"'), *_plain_tus()]),
    "doc prop": ("tm.tmx", [_tu(*PLAIN[0], head='<prop type="doc">Contrato_Quitéria_Esteves_Barbosa</prop>'),
                            *_plain_tus()]),
    "tuv prop": ("tm.tmx", [_tu(*PLAIN[0], tuv_src=f'<prop type="x-context">Revisto pela Dra. {SECRET}</prop>'),
                            *_plain_tus()]),
    "g content": ("tm.tmx", [_tu(f'Assinado pela Dra. <g id="1">{SECRET}</g>.',
                                 f'Signed by Dr <g id="1">{SECRET}</g>.'), *_plain_tus()]),
    "hi content": ("tm.tmx", [_tu(f'Assinado pela Dra. <hi x="1">{SECRET}</hi>.',
                                  f'Signed by Dr <hi x="1">{SECRET}</hi>.'), *_plain_tus()]),
    "ph content": ("tm.tmx", [_tu(f'Ver <ph x="1">&lt;a title="Dra. {SECRET}"&gt;</ph>o anexo.',
                                  f'See <ph x="1">&lt;a title="Dra. {SECRET}"&gt;</ph>the annex.'), *_plain_tus()]),
    "file name": ("Contrato_Quitéria_Esteves_Barbosa_NIF_123456789.tmx", _plain_tus()),
}


def _public_texts(out: Path) -> dict[str, str]:
    """Every public file of an output folder (all but keys.sqlite and the other private files: the audit's
    ``PRIVATE``), index files included, as text."""
    texts = {}
    for p in out.rglob("*"):
        if p.is_file() and p.relative_to(out).parts[0] not in PRIVATE:
            texts[str(p.relative_to(out))] = p.read_bytes().decode("utf-8", "ignore")
    for p in (out / "index").resolve().rglob("*") if (out / "index").exists() else ():
        if p.is_file():
            texts[f"index:{p.name}"] = p.read_bytes().decode("utf-8", "ignore")
    return texts


def _portal_texts(out: Path) -> dict[str, str]:
    from paranon.search_portal.app import create_app

    client = create_app({"OUTDIR": str(out), "TESTING": True}).test_client()
    texts = {}
    for url in ("/?q=contrato", "/corpus", "/api/search?q=a*&per_page=100", "/api/search?q=contrato",
                "/api/stats", "/?q=dra", "/api/search?q=cliente"):
        texts[url] = client.get(url).get_data(as_text=True)
    for rec in map(json.loads, (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()):
        texts[f"/api/pairs/{rec['id']}"] = client.get(f"/api/pairs/{rec['id']}").get_data(as_text=True)
        texts[f"/pair/{rec['id']}"] = client.get(f"/pair/{rec['id']}").get_data(as_text=True)
    for fmt in ("tmx", "tsv", "jsonl", "moses"):
        data = client.get(f"/download?format={fmt}").data
        if fmt == "moses":
            z = zipfile.ZipFile(io.BytesIO(data))
            data = b"".join(z.read(n) for n in z.namelist())
        texts[f"/download?format={fmt}"] = data.decode("utf-8", "ignore")
    return texts


def _leaks(out: Path, secrets: list[str]) -> list[tuple[str, str]]:
    found = []
    for where, text in {**_public_texts(out), **_portal_texts(out)}.items():
        low = text.lower()
        found += [(where, s) for s in secrets if s.lower() in low or json.dumps(s)[1:-1].lower() in low]
    return found


@pytest.fixture(scope="module")
def cfg():
    c = load_config()
    c["workers"] = 1
    return c


@pytest.mark.parametrize("channel", list(TMX_CHANNELS))
def test_a_name_planted_in_a_tmx_channel_reaches_no_public_file_or_portal_answer(tmp_path, cfg, channel):
    name, units = TMX_CHANNELS[channel]
    src = tmp_path / "in" / name
    src.parent.mkdir()
    src.write_text(_tmx(units), encoding="utf-8")
    out = tmp_path / "out"
    report = run(src, out, cfg, quiet=True)
    assert report["units"]["written"] == len(units)
    assert not _leaks(out, SECRET_PARTS)


def test_inline_tags_survive_with_their_content_masked(tmp_path, cfg):
    src = tmp_path / "tm.tmx"
    src.write_text(_tmx(TMX_CHANNELS["g content"][1]), encoding="utf-8")
    run(src, tmp_path / "out", cfg, quiet=True)
    tmx = (tmp_path / "out" / "corpus.tmx").read_text(encoding="utf-8")
    assert '<g id="1">&lt;NAME1_PERSON&gt;</g>' in tmx
    first = (tmp_path / "out" / "corpus.pt").read_text(encoding="utf-8").splitlines()[0]
    assert first == "Assinado pela Dra. <NAME1_PERSON>."


def test_tsv_extra_column_is_anonymized(tmp_path, cfg):
    src = tmp_path / "tm.tsv"
    rows = ["pt\ten\tcliente\tcreationid"] + [f"{s}\t{t}\tDra. {SECRET}\tqesteves" for s, t in PLAIN]
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    run(src, out, cfg, quiet=True)
    assert not _leaks(out, SECRET_PARTS)
    rec = json.loads((out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert rec["meta"] == {"columns": {"cliente": "Dra. <NAME1_PERSON>"}}  # creationid dropped


def test_jsonl_meta_is_anonymized(tmp_path, cfg):
    src = tmp_path / "tm.jsonl"
    recs = [{"id": f"Contrato {SECRET}:{k}", "doc": f"Contrato {SECRET}", "src": s, "tgt": t,
             "meta": {"client": {"name": f"Dra. {SECRET}", "since": 2019}, "author": "qesteves",
                      "tags": [f"revisto pela Dra. {SECRET}"]}}
            for k, (s, t) in enumerate(PLAIN)]
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    out = tmp_path / "out"
    run(src, out, cfg, quiet=True)
    assert not _leaks(out, SECRET_PARTS)
    rec = json.loads((out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert rec["id"] == "doc-0001:1" and rec["doc"] == "doc-0001"
    assert rec["meta"]["client"]["since"] == 2019 and "author" not in rec["meta"]


def test_report_names_no_input_path(tmp_path, cfg):
    name, units = TMX_CHANNELS["file name"]
    src = tmp_path / "in" / name
    src.parent.mkdir()
    src.write_text(_tmx([*units, '<tu><tuv xml:lang="pt"><seg>só um lado</seg></tuv></tu>']), encoding="utf-8")
    report = run(src, tmp_path / "out", cfg, quiet=True)
    assert report["units"]["skipped"] == 1
    assert report["units"]["skipped_examples"][0].startswith("file-0001:")
    text = json.dumps(report, ensure_ascii=False)
    assert "Quitéria" not in text and str(tmp_path) not in text
    db = sqlite3.connect(str(tmp_path / "out" / "keys.sqlite"))
    assert db.execute("SELECT original FROM ids WHERE kind = 'file'").fetchone()[0] == str(src)


@pytest.mark.parametrize("asked", ["doc-0001:2", "Contrato_Quitéria_Esteves_Barbosa:2"])
def test_reveal_finds_a_unit_by_its_opaque_or_original_id(tmp_path, cfg, capsys, asked):
    src = tmp_path / "tm.tmx"
    units = [_tu(s, t, attrs=f' tuid="Contrato_Quitéria_Esteves_Barbosa:{k}"', head='<prop type="doc">C1</prop>')
             for k, (s, t) in enumerate([("A Dra. Quitéria Esteves Barbosa assinou.", "Dr Quitéria Esteves Barbosa "
                                          "signed."), *PLAIN], 1)]
    src.write_text(_tmx(units), encoding="utf-8")
    run(src, tmp_path / "out", cfg, quiet=True)
    assert main(["reveal", str(tmp_path / "out"), "--id", asked.replace(":2", ":1")]) == 0
    assert "A Dra. Quitéria Esteves Barbosa assinou." in capsys.readouterr().out


def test_ids_keep_publishes_the_ids_as_read(tmp_path, cfg):
    src = tmp_path / "tm.tmx"
    src.write_text(_tmx([_tu(s, t, attrs=f' tuid="u{k}"', head='<prop type="doc">C1</prop>')
                         for k, (s, t) in enumerate(PLAIN)]), encoding="utf-8")
    run(src, tmp_path / "out", {**cfg, "ids": "keep"}, quiet=True)
    ids = [json.loads(x)["id"] for x in (tmp_path / "out" / "corpus.jsonl").read_text().splitlines()]
    assert ids == ["u0", "u1", "u2", "u3"]


@pytest.mark.parametrize("policy, expected", [
    ({"text": "drop"}, {"langs": ["pt", "en"]}),
    ({"text": "keep"}, {"notes": [f"Dra. {SECRET}"], "langs": ["pt", "en"]}),
    ({"people": "keep"}, {"attrs": {"creationid": "qesteves"}, "langs": ["pt", "en"]}),
])
def test_metadata_policy_drops_or_keeps_as_set(cfg, policy, expected):
    meta = {"notes": [f"Dra. {SECRET}"], "attrs": {"creationid": "qesteves"}, "langs": ["pt", "en"]}
    pair = SegmentPair(id="u", doc="d", src="a", tgt="b", meta=meta)
    settings = {**cfg["metadata"], "text": "keep" if "people" in policy else "drop", **policy}
    prep = prepare_metadata(pair, MetadataPolicy.from_config({**cfg, "metadata": settings}))
    prep.fill(prep.texts)
    got = {k: v for k, v in pair.meta.items() if k in expected or v}
    if "people" in policy:
        got.pop("notes", None)
    assert got == expected


@pytest.mark.parametrize("xml, policy, after", [
    ('<ph x="1">&lt;a href="mailto:q@x.pt"&gt;</ph>', "drop", '<ph x="1"/>'),
    ('<bpt i="1">&lt;b&gt;</bpt>', "keep", '<bpt i="1">&lt;b&gt;</bpt>'),
    ('<hi x="1">', "drop", '<hi x="1">'),  # half of a wrapping tag: no content of its own
])
def test_inline_code_policy(cfg, xml, policy, after):
    pair = SegmentPair(id="u", doc="d", src="a", tgt="b", src_inline=[Inline(0, xml)])
    settings = {**cfg["metadata"], "inline_code": policy}
    prep_ = prepare_metadata(pair, MetadataPolicy.from_config({**cfg, "metadata": settings}))
    assert prep_.texts == []
    assert pair.src_inline[0].xml == after


@pytest.mark.parametrize("text, escaped, placeholders, redactions", [
    ("O <NAME1_PERSON> assinou.", "O \u2039NAME1_PERSON\u203a assinou.", 1, 0),
    ("Entre <NAME2_ORGANIZATION_COMPANY> e [NOME].", "Entre \u2039NAME2_ORGANIZATION_COMPANY\u203a e [NOME].", 1, 1),
    ("Conta XXXX, cartão ***.", "Conta XXXX, cartão ***.", 0, 2),
])
def test_input_placeholders_are_escaped_and_counted(cfg, text, escaped, placeholders, redactions):
    esc = InputPlaceholders.from_config(cfg)
    assert esc.escape(text) == escaped
    assert esc.counts() == {"escaped_placeholders": placeholders, "redactions": redactions}


def test_an_input_placeholder_never_collides_with_an_entity(tmp_path, cfg):
    src = tmp_path / "tm.tsv"
    rows = ["pt\ten", "O <NAME1_PERSON> e a Dra. Quitéria Esteves Barbosa assinaram.\t"
            "<NAME1_PERSON> and Dr Quitéria Esteves Barbosa signed.", *("\t".join(p) for p in PLAIN)]
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    report = run(src, tmp_path / "out", cfg, quiet=True)
    assert report["input_placeholders"]["escaped_placeholders"] == 2
    rec = json.loads((tmp_path / "out" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert rec["src"].count("<NAME1_PERSON>") == 1 and "\u2039NAME1_PERSON\u203a" in rec["src"]


@pytest.mark.parametrize("docs, ids", [
    (["A", "A", "B"], ["doc-0001:1", "doc-0001:2", "doc-0002:1"]),
    (["B", "A", "B"], ["doc-0001:1", "doc-0002:1", "doc-0001:2"]),
    (["x/y.tmx", "x/y.tmx#2"], ["doc-0001:1", "doc-0002:1"]),
])
def test_opaque_ids_follow_reading_order(docs, ids):
    pairs = [SegmentPair(id=f"{d}:{k}", doc=d, src="a", tgt="b") for k, d in enumerate(docs)]
    got = list(OpaqueIds().apply(pairs))
    assert [p.id for p in got] == ids
    assert [p.source_ids for p in got] == [(f"{d}:{k}", d) for k, d in enumerate(docs)]


@pytest.mark.parametrize("notes, expected, placeholders", [
    (["ver <NAME1_PERSON>", "ver <NAME1_PERSON>"], ["ver \u2039NAME1_PERSON\u203a", "ver \u2039NAME1_PERSON\u203a"], 2),
    (["nota", "nota <NAME2_DATE>", "nota"], ["nota", "nota \u2039NAME2_DATE\u203a", "nota"], 1),
    (["doc A", "doc A", "doc B"], ["doc A", "doc A", "doc B"], 0),
])
def test_placeholders_in_recurring_metadata_are_escaped_and_counted_each_time(cfg, notes, expected, placeholders):
    esc = InputPlaceholders.from_config(cfg)
    pairs = [SegmentPair(id=str(k), doc="d", src="a", tgt="b", meta={"notes": [n]}) for k, n in enumerate(notes)]
    assert [p.meta["notes"][0] for p in esc.apply(pairs)] == expected
    assert esc.counts()["escaped_placeholders"] == placeholders
