"""Bad input loses nothing silently: a bad unit is skipped and reported with its line, the reading goes on at
the next unit, and a run that has nothing to write fails with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paranon.cli import main

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header/><body>\n'
UNITS = 200


def _tu(k: int, pt: str = "O contrato n.º {k} foi assinado.") -> str:
    return (f'<tu><tuv xml:lang="pt"><seg>{pt.format(k=k)}</seg></tuv>'
            f'<tuv xml:lang="en"><seg>Contract no. {k} was signed.</seg></tuv></tu>\n')


def _tmx(bad: bytes | None = None, at: int = 10, tail: bool = True) -> bytes:
    """UNITS units, unit ``at`` (0-based) replaced by ``bad``, on lines 3, 4, 5 ..."""
    units = [_tu(k).encode() for k in range(UNITS)]
    if bad is not None:
        units[at] = bad
    return HEAD.encode() + b"".join(units) + (b"</body></tmx>\n" if tail else b"")


CASES = {
    "NUL": (_tmx(_tu(10, "O contrato\x00 n.º {k}.").encode()), UNITS - 1, {"bad character": 1}, 13),
    "control character": (_tmx(_tu(10, "O \x1b[1mcontrato n.º {k}.").encode()), UNITS - 1, {"bad character": 1}, 13),
    "bad UTF-8 byte": (_tmx(_tu(10).encode().replace(b"contrato", b"contr\xe1to")), UNITS - 1,
                       {"bad encoding": 1}, 13),
    "broken unit": (_tmx(b'<tu><tuv xml:lang="pt"><seg>sem fim</tuv></tu>\n'), UNITS - 1, {"malformed XML": 1}, 13),
    "truncated file": (_tmx()[:-60], UNITS - 1, {"malformed XML": 1}, UNITS + 2),
    "cut after a unit": (_tmx(tail=False), UNITS, {"malformed XML": 1}, None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_unit_is_skipped_reported_and_the_rest_written(tmp_path, capsys, case):
    data, written, reasons, line = CASES[case]
    src = tmp_path / "tm.tmx"
    src.write_bytes(data)
    out = tmp_path / "out"
    assert main(["run", str(src), "-o", str(out), "--workers", "1", "--quiet"]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["units"]["written"] == written
    assert report["units"]["skipped_by_reason"] == reasons
    if line is not None:
        assert report["units"]["skipped_examples"][0].startswith(f"file-0001:{line}:")
    assert len((out / "corpus.pt").read_text(encoding="utf-8").splitlines()) == written
    assert f"{written} pairs written" in capsys.readouterr().err


@pytest.mark.parametrize("name, data, why", [
    ("empty.tmx", HEAD.encode() + b"</body></tmx>\n", "the input holds no unit"),
    ("notxml.tmx", b"PK\x03\x04 this is a zip file\n", "malformed XML: 1"),
    ("allbad.tmx", HEAD.encode() + b'<tu><tuv xml:lang="pt"><seg>s\xf3</seg></tuv></tu>\n</body></tmx>',
     "bad encoding: 1"),
    ("empty.tsv", b"pt\ten\n", "the input holds no unit"),
])
def test_nothing_to_write_exits_non_zero_with_the_reason(tmp_path, capsys, name, data, why):
    src = tmp_path / name
    src.write_bytes(data)
    assert main(["run", str(src), "-o", str(tmp_path / "out"), "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert why in err and err.count("\n") == 1, err
    assert not (tmp_path / "out" / "corpus.jsonl").exists() and not (tmp_path / "out" / ".work").exists()


def test_strict_stops_at_the_bad_unit_naming_file_and_line(tmp_path, capsys):
    src = tmp_path / "tm.tmx"
    src.write_bytes(CASES["NUL"][0])
    assert main(["run", str(src), "-o", str(tmp_path / "out"), "--strict", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"{src}:13" in err and "bad character" in err


def test_the_cli_paths_are_not_in_the_report(tmp_path: Path):
    src = tmp_path / "Contrato_Nome_Apelido.tmx"
    src.write_bytes(CASES["NUL"][0])
    assert main(["run", str(src), "-o", str(tmp_path / "out"), "--workers", "1", "--quiet"]) == 0
    for name in ("report.json", "report.html"):
        text = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert "Nome_Apelido" not in text and str(tmp_path) not in text


@pytest.mark.parametrize("line", ["Um\x07 toque.\tA\x07 bell.", "Fim de página\x0c.\tPage end\x0c.",
                                  "Nulo\x00 aqui.\tNull\x00 here."])
def test_a_control_character_of_a_tsv_keeps_corpus_tmx_well_formed(tmp_path, line):
    from lxml import etree

    src = tmp_path / "tm.tsv"
    src.write_text("pt\ten\n" + line + "\nBom dia.\tGood morning.\n", encoding="utf-8")
    assert main(["run", str(src), "-o", str(tmp_path / "out"), "--workers", "1", "--quiet"]) == 0
    tree = etree.parse(str(tmp_path / "out" / "corpus.tmx"))
    assert len(tree.findall(".//tu")) == 2 and "\ufffd" in "".join(tree.getroot().itertext())


def test_a_full_disk_is_one_line_and_says_what_work_holds(tmp_path, capsys, monkeypatch):
    import errno

    from paranon import pipeline

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "out" / "corpus.tmx"))

    monkeypatch.setattr(pipeline, "assemble", full)
    src = tmp_path / "tm.tmx"
    src.write_bytes(_tmx()[:2000] + b"</body></tmx>\n")
    assert main(["run", str(src), "-o", str(tmp_path / "out"), "--workers", "1", "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0] == f"paranon: error: No space left on device: {tmp_path / 'out' / 'corpus.tmx'}"
    assert len(err) == 2 and ".work holds originals" in err[1] and "Traceback" not in "".join(err)
