"""The whole run on the sample: every output exists, numbers agree across languages, no original leaks."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

from paranon.anonymize.keystore import originals

from paranon.audit import PRIVATE

from .conftest import GOLD, SAMPLE, SHARED, needs_shared

OUTPUTS = ["corpus.jsonl", "corpus.tmx", "corpus.pt", "corpus.en", "corpus.tsv", "alignments.pharaoh",
           "report.json", "report.html", "keys.sqlite", "index"]


def public_files(out):
    """Every file but the private ones (``keys.sqlite``, the checkpoint ``paranon apply`` keeps ...)."""
    for p in out.rglob("*"):
        if p.is_file() and p.relative_to(out).parts[0] not in PRIVATE:
            yield p


def test_every_output_is_written(sample_out):
    for name in OUTPUTS:
        assert (sample_out / name).exists(), name
    report = json.loads((sample_out / "report.json").read_text())
    assert report["units"]["written"] >= 300 and report["units"]["skipped"] == 0
    assert report["mentions"]["src"]["PERSON"] > 0
    assert (sample_out / "keys.sqlite").stat().st_mode & 0o077 == 0


def gold_strings() -> list[str]:
    """Every gold entity string of the sample (both sides): the identities that must never be published."""
    out = set()
    for line in open(GOLD, encoding="utf-8"):
        rec = json.loads(line)
        for side, ents in (("src", rec["src_entities"]), ("tgt", rec["tgt_entities"])):
            for e in ents:
                out.add(rec[side][e["start"]:e["end"]])
    return sorted(s for s in out if len(s) >= 4)


def test_no_gold_entity_reaches_any_public_output(sample_out):
    secrets = gold_strings()
    assert len(secrets) > 100 and originals(sample_out / "keys.sqlite")
    for p in public_files(sample_out):
        data = p.read_bytes().decode("utf-8", "ignore").lower()
        leaked = [s for s in secrets if s.lower() in data]
        assert not leaked, (p.name, leaked[:5])


def test_same_entity_same_number_on_both_sides(sample_out):
    agree = total = 0
    for line in open(sample_out / "corpus.jsonl", encoding="utf-8"):
        rec = json.loads(line)
        src = {m["entity"] for m in rec["src_mentions"]}
        tgt = {m["entity"] for m in rec["tgt_mentions"]}
        total += len(src)
        agree += len(src & tgt)
    assert agree / total > 0.9


def test_reveal_puts_the_originals_back(sample_out):
    rec = json.loads(open(sample_out / "corpus.jsonl", encoding="utf-8").readline())
    out = subprocess.run([sys.executable, "-m", "paranon.cli", "reveal", str(sample_out), "--id", rec["id"]],
                         capture_output=True, text=True, check=True).stdout
    db = sqlite3.connect(sample_out / "keys.sqlite")
    names = [r[0] for r in db.execute("SELECT original FROM mentions WHERE unit = ?", (rec["id"],))]
    assert names and all(n in out for n in names)


def test_user_mistakes_give_one_line_errors(tmp_path):
    for args in (["run", str(tmp_path / "missing.tmx"), "-o", str(tmp_path / "o")],
                 ["run", str(SAMPLE), "-o", str(tmp_path / "o"), "--config", str(tmp_path / "nope.yaml")]):
        r = subprocess.run([sys.executable, "-m", "paranon.cli", *args], capture_output=True, text=True)
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1 and "error" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("anonymize:\n  nonsense: 1\n")
    r = subprocess.run([sys.executable, "-m", "paranon.cli", "run", str(SAMPLE), "-o", str(tmp_path / "o"),
                        "--config", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "nonsense" in r.stderr


@needs_shared(SHARED / "dgt-tm-pt-en")
def test_dgt_original_runs_end_to_end(tmp_path, cfg):
    from paranon.pipeline import run

    f = SHARED / "dgt-tm-pt-en" / "original_tmx" / "22019D0391.tmx"
    report = run(f, tmp_path, cfg, quiet=True)
    assert report["units"]["written"] == 19 and report["units"]["skipped_by_reason"] == {"missing pt side": 6}
    assert "guard_masks" in report["transfer"] and "untransferred" in report["transfer"]
    for name in OUTPUTS:
        assert (tmp_path / name).exists()


def _tmx(units: list[tuple[str, str, str]]) -> str:
    tus = "".join(f'<tu><prop type="doc">{d}</prop><tuv xml:lang="pt"><seg>{s}</seg></tuv>'
                  f'<tuv xml:lang="en"><seg>{t}</seg></tuv></tu>' for d, s, t in units)
    return f'<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header srclang="pt"/><body>{tus}</body></tmx>'


def test_an_entity_found_in_one_document_is_hidden_in_every_other(tmp_path, cfg):
    from paranon.pipeline import run

    tm = tmp_path / "tm.tmx"
    tm.write_text(_tmx([
        ("A", "O Sr. Rui Tavares Quintela assinou o contrato.", "Mr Rui Tavares Quintela signed the agreement."),
        ("B", "O contrato foi assinado ontem.", "The agreement was signed yesterday by Rui Tavares Quintela."),
        ("C", "A ata menciona Quintela.", "The minutes mention Quintela."),
    ]), encoding="utf-8")
    c = json.loads(json.dumps(cfg))
    run(tm, tmp_path / "on", c, quiet=True)
    rows = [json.loads(x) for x in (tmp_path / "on" / "corpus.jsonl").open(encoding="utf-8")]
    assert all("Quintela" not in r["src"] + r["tgt"] for r in rows)
    assert rows[1]["tgt_mentions"][0]["recognizer"] == "consistency"
    report = json.loads((tmp_path / "on" / "report.json").read_text(encoding="utf-8"))
    assert report["consistency_masks"]["tgt"] >= 1
    c["anonymize"]["corpus_consistency"] = False
    run(tm, tmp_path / "off", c, quiet=True)
    rows = [json.loads(x) for x in (tmp_path / "off" / "corpus.jsonl").open(encoding="utf-8")]
    assert "Rui Tavares Quintela" in rows[1]["tgt"]  # what the pass is for


def test_a_form_overlapping_a_mention_gives_way_to_a_shorter_form_that_fits():
    """"European Parliament and of the Council" cannot be masked where "Council" already is; the shorter
    "European Parliament" still is."""
    from paranon.anonymize.consistency import CorpusForms, form_key
    from paranon.corpora.model import Mention

    forms = CorpusForms()
    for text in ("European Parliament and of the Council", "European Parliament"):
        forms._add(form_key(text), Mention(0, len(text), "ORGANIZATION", text, "organization", "head"))
    text = "Regulation No 1223/2009 of the European Parliament and of the Council on cosmetics"
    council = text.index("Council")
    found = forms.find(text, [Mention(council, council + 7, "ORGANIZATION", "Council", "transfer", "x")])
    assert [text[s:e] for s, e, _ in found] == ["European Parliament"]


def test_a_tm_without_document_ids_runs_as_pseudo_documents_on_every_worker(tmp_path, cfg):
    """A TM naming no documents is not one document: it is cut into blocks of ``input.document_pairs`` pairs,
    numbered each on its own, spread over the workers with the same outputs as one worker gives."""
    from paranon.pipeline import run

    units = [(f"Rui Quintela{k % 3} assinou o contrato n.º {k}.", f"Rui Quintela{k % 3} signed agreement {k}.")
             for k in range(9)]
    tus = "".join(f'<tu><tuv xml:lang="pt"><seg>{s}</seg></tuv><tuv xml:lang="en"><seg>{t}</seg></tuv></tu>'
                  for s, t in units)
    tm = tmp_path / "nodocs.tmx"
    tm.write_text(f'<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header/><body>{tus}</body></tmx>',
                  encoding="utf-8")
    outs = []
    for workers in (1, 2):
        c = json.loads(json.dumps(cfg))
        c["input"]["document_pairs"], c["chunk_size"], c["workers"] = 4, 4, workers
        c["index"]["enabled"] = False
        run(tm, tmp_path / f"w{workers}", c, quiet=True)
        outs.append((tmp_path / f"w{workers}" / "corpus.jsonl").read_text(encoding="utf-8"))
    rows = [json.loads(x) for x in outs[0].splitlines()]
    assert [r["doc"] for r in rows] == ["doc-0001"] * 4 + ["doc-0002"] * 4 + ["doc-0003"]  # nodocs, nodocs#2 ... (opaque)
    assert rows[4]["src"].startswith("<NAME1_PERSON>")  # each block numbers its entities from 1
    assert outs[0] == outs[1]
