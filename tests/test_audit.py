"""``paranon audit``: an original planted in any kind of public file is found; a clean run passes."""

from __future__ import annotations

import html
import json
import shutil
import sqlite3
import subprocess
import sys

import pytest

from paranon.audit import audit

PERSON = "Bento Pimentel Queiroga"  # planted names: not in the sample's key store unless added
NIF = "578657970"


def add_original(out, original: str, category: str = "PERSON") -> None:
    db = sqlite3.connect(out / "keys.sqlite")
    db.execute("INSERT INTO mentions (unit, side, start, end, scope, number, category, original) "
               "VALUES ('planted', 'src', 0, 0, 'doc', 999, ?, ?)", (category, original))
    db.commit()
    db.close()


def append(path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)


def edit_json(path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")  # ASCII escapes: the audit must decode them


def backend(out) -> str:
    return json.loads((out / "index" / "backend.json").read_text(encoding="utf-8"))["backend"]


def plant_in_index(out, stored: bool) -> None:
    """A record (or, ``stored`` false, only index terms) holding the originals, in the run's own backend."""
    rec = {"src": f"Contrato com {PERSON}.", "tgt": "Contract."} if stored else {"src": "x", "tgt": "x"}
    if backend(out) == "tantivy":
        import tantivy
        from paranon.search_portal.tantivy_index import _open, make_schema

        part = sorted((out / "index" / "tantivy").glob("part-*"))[0]
        w = _open(part, make_schema()).writer(heap_size=15_000_000, num_threads=1)
        doc = tantivy.Document()
        doc.add_text("id", "planted")
        doc.add_text("doc", "planted")
        doc.add_text("src", f"contrato {NIF} com {PERSON.lower()}")
        doc.add_text("tgt", "contract")
        doc.add_bytes("rec", json.dumps(rec).encode("utf-8"))
        w.add_document(doc)
        w.commit()
        w.wait_merging_threads()
        return
    from paranon.search_portal.indexer import open_index

    w = open_index(out / "index").writer()
    w.add_document(id="planted", doc="planted", src=f"Contrato {NIF} com {PERSON}", tgt="Contract", rec=rec)
    w.commit()


# where the original goes, how it is planted, and the file name the audit must report
PLANTS = [
    ("corpus.jsonl", lambda o: append(o / "corpus.jsonl", json.dumps({"id": "x", "src": f"Sr. {PERSON}"}) + "\n"),
     "corpus.jsonl"),
    ("corpus.tmx", lambda o: append(o / "corpus.tmx", f"<seg>{html.escape('Queiroga & Bento Pimentel Queiroga')}"
                                                       "</seg>\n"), "corpus.tmx"),
    ("corpus.tmx accented as entity", lambda o: append(o / "corpus.tmx", "<seg>BENTO PIMENTEL QUEIR&#211;GA</seg>"),
     "corpus.tmx"),
    ("corpus.pt", lambda o: append(o / "corpus.pt", f"O senhor {PERSON.upper()} assina.\n"), "corpus.pt"),
    ("corpus.en", lambda o: append(o / "corpus.en", f"Mr {PERSON} signs.\n"), "corpus.en"),
    ("corpus.tsv", lambda o: append(o / "corpus.tsv", f"x\tdoc\tNIF {NIF}\tTax number {NIF}\n"), "corpus.tsv"),
    ("alignments.pharaoh", lambda o: append(o / "alignments.pharaoh", f"0-0 {NIF}\n"), "alignments.pharaoh"),
    ("report.json", lambda o: edit_json(o / "report.json", lambda d: d.update(note=f"see {PERSON}")), "report.json"),
    ("report.html", lambda o: append(o / "report.html", f"<td>{PERSON.lower()}</td>"), "report.html"),
    ("stems.json", lambda o: edit_json(o / "index" / "stems.json",
                                       lambda d: d["src"]["groups"].update(queirog=["queiroga", "bento pimentel queiroga"])),
     "stems.json"),
    ("translations.json", lambda o: edit_json(o / "index" / "translations.json",
                                              lambda d: d["src"].update(contrato=[[f"contract {NIF}", 3]])),
     "translations.json"),
    ("hot terms", lambda o: edit_json(o / "index" / "hot" / "src.terms.json", lambda d: d.update({NIF: [0, 0]})),
     "hot/src.terms.json"),
    ("index stored record", lambda o: plant_in_index(o, stored=True), " segments)"),
    ("index terms only", lambda o: plant_in_index(o, stored=False), " segments)"),
]


@pytest.fixture()
def copy(sample_out, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(sample_out, out, symlinks=True)
    add_original(out, PERSON)
    add_original(out, NIF, "NAMEID")
    return out


def test_a_clean_run_passes(sample_out):
    report = json.loads((sample_out / "report.json").read_text(encoding="utf-8"))
    assert next(iter(report)) == "audit" and report["audit"]["clean"] and not report["audit"]["leaks"]
    assert "Audit: clean" in (sample_out / "report.html").read_text(encoding="utf-8")
    res = audit(sample_out)
    assert res.clean and res.originals > 100
    assert {"corpus.jsonl", "corpus.tmx", "corpus.pt", "corpus.en", "corpus.tsv", "alignments.pharaoh",
            "report.json", "report.html"} <= set(res.files)
    assert any(f.endswith(f"({'tantivy' if backend(sample_out) == 'tantivy' else 'Whoosh'} segments)")
               for f in res.files)
    assert any(f.endswith("stems.json") for f in res.files) and any(f.endswith("translations.json") for f in res.files)


@pytest.mark.parametrize("where, plant, reported", PLANTS, ids=[p[0] for p in PLANTS])
def test_an_original_planted_in_a_public_file_is_found(copy, where, plant, reported):
    if where == "hot terms" and not (copy / "index" / "hot").exists():
        pytest.skip("this backend writes no hot postings")
    assert audit(copy).clean  # the planted originals are nowhere yet
    plant(copy)
    res = audit(copy)
    assert not res.clean
    assert [f for (_, f) in res.leaks if f.endswith(reported)], res.leaks


@pytest.mark.parametrize("text, original, category, allow, leak", [
    # a masked name inside an allowed string is public text, alone it is a leak
    ("O Tribunal de Justiça da União Europeia decide.", "União Europeia", "ORGANIZATION",
     ["Tribunal de Justiça da União Europeia"], False),
    ("O TRIBUNAL DE JUSTICA DA UNIAO EUROPEIA decide.", "União Europeia", "ORGANIZATION",
     ["Tribunal de Justiça da União Europeia"], False),
    ("A União Europeia decide.", "União Europeia", "ORGANIZATION", ["Tribunal de Justiça da União Europeia"], True),
    # a one-word entity that is an ordinary word: public in lowercase, a leak written as a name
    ("Vivem na costa alentejana.", "Costa", "PERSON", [], False),
    ("Assina o Sr. Costa.", "Costa", "PERSON", [], True),
    ("ASSINA COSTA.", "Costa", "PERSON", [], True),
    # a one-word entity that is an ordinary word no name list knows: public however it is written
    ("O Tribunal decide.", "Tribunal", "ORGANIZATION", [], False),
    ("O TRIBUNAL DECIDE.", "Tribunal", "ORGANIZATION", [], False),
    ("Ouvido o tribunal.", "Tribunal", "ORGANIZATION", [], False),
    # numbers: an article number or a year is public, an identifier-shaped number is not
    ("Nos termos do artigo 47.", "47", "NAMEID", [], False),
    ("Em 2019 e 2020.", "2019", "DATE", [], False),
    ("NIF 506 123 456.", "506 123 456", "NAMEID", [], True),
    # word boundaries: part of a longer word or number is not a hit
    ("Os Costados do navio.", "Costa", "PERSON", [], None),
    ("Processo 5061234567.", "506123456", "NAMEID", [], None),
    ("Lusomares, S.A.", "Lusomar", "ORGANIZATION", [], None),
])
def test_public_words_that_are_also_entity_forms(copy, text, original, category, allow, leak):
    add_original(copy, original, category)
    append(copy / "corpus.pt", text + "\n")
    cfg = {"anonymize": {"allow": allow, "allow_files": []}}
    res = audit(copy, cfg)
    leaked = sum(n for (_, f), n in res.leaks.items() if f == "corpus.pt")
    public = sum(n for (_, f), n in res.public.items() if f == "corpus.pt")
    if leak is None:
        assert leaked == public == 0
    else:
        assert (leaked, public) == ((1, 0) if leak else (0, 1))


def test_alignment_links_are_not_read_as_numbers(copy):
    add_original(copy, "47", "NAMEID")
    add_original(copy, "12-47", "NAMEID")
    append(copy / "alignments.pharaoh", "0-0 12-47 47-47 3-4-p 5?6\n")
    res = audit(copy, {"anonymize": {"allow_files": []}})
    assert not [f for (_, f) in res.leaks | res.public if f == "alignments.pharaoh"]


def test_the_command_names_files_but_shows_originals_only_when_asked(copy):
    append(copy / "corpus.en", f"Mr {PERSON} signs.\n")
    cmd = [sys.executable, "-m", "paranon.cli", "audit", str(copy)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1 and "corpus.en" in r.stdout and "PERSON" in r.stdout
    assert PERSON.lower() not in (r.stdout + r.stderr).lower()
    shown = subprocess.run([*cmd, "--show"], capture_output=True, text=True)
    assert shown.returncode == 1 and PERSON in shown.stdout


def test_auditing_a_folder_without_keys_is_a_one_line_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "paranon.cli", "audit", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "keys.sqlite" in r.stderr
