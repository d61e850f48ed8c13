"""Long segments never hang a run: anonymize and transfer take time in proportion to a segment's length, and a
unit over ``input.max_segment_chars`` is split at sentence ends or rejected with a clear message."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from paranon.corpora.formats import Problems, read_corpus
from paranon.corpora.model import Inline, SegmentPair

from paranon.limits import SegmentLimit, split_pair

from .conftest import SAMPLE


def _sample_pairs() -> list[SegmentPair]:
    return list(read_corpus(SAMPLE, "pt", "en", Problems()))


def _long_pair(pairs: list[SegmentPair], chars: int) -> SegmentPair:
    """One entity-dense pair of about ``chars`` characters: the sample's contract units end to end."""
    src, tgt, n, i = [], [], 0, 0
    while n < chars:
        p = pairs[i % len(pairs)]
        src.append(p.src)
        tgt.append(p.tgt)
        n += len(p.src) + 1
        i += 1
    return SegmentPair(id="long", doc="long", src=" ".join(src), tgt=" ".join(tgt))


def test_anonymize_and_transfer_time_grows_linearly_with_segment_length(cfg):
    from paranon.align.finish import Finisher
    from paranon.anonymize.anonymized import anonymize_docs
    from paranon.anonymize.engine import Anonymizer

    from paranon.text import tokenize

    anonymizer = Anonymizer(cfg)
    pairs = _sample_pairs()

    def cpu_seconds(chars: int) -> float:
        pair = _long_pair(pairs, chars)
        t0 = time.process_time()
        [it] = anonymize_docs(anonymizer, [[pair]])
        finisher = Finisher(anonymizer, "pt", "en")
        tr, scope = finisher.transfer(it, [], {}, None)
        finisher.replace(it, [], tr, scope)
        assert it.mentions and tr.mentions and len(tokenize(it.replaced.text)) > chars // 20
        return time.process_time() - t0

    cpu_seconds(1_000)  # warm: lexicons and caches
    t1, t2, t4 = cpu_seconds(100_000), cpu_seconds(200_000), cpu_seconds(400_000)
    assert t4 < 6 * t1, (t1, t2, t4)  # linear is 4x; the quadratic steps made it about 16x


SENTENCES = [f"O Dr. Rui Costa assinou o contrato n.º {k} em Lisboa." for k in range(300)]
TRANSLATIONS = [f"Dr Rui Costa signed contract no. {k} in Lisbon." for k in range(300)]


@pytest.mark.parametrize("src, tgt, inline, pieces", [
    (" ".join(SENTENCES), " ".join(TRANSLATIONS), [], 5),  # 16,400 characters in pieces planned at 3,600
    (" ".join(SENTENCES), " ".join(TRANSLATIONS), [Inline(40, '<g id="1">'), Inline(5000, "</g>")], 5),
    (" ".join(SENTENCES), "The contract.", [], 5),
])
def test_a_long_unit_is_split_at_sentence_ends(src, tgt, inline, pieces):
    pair = SegmentPair(id="u", doc="d", src=src, tgt=tgt, src_inline=inline, meta={"notes": ["n"]})
    parts = split_pair(pair, 6_000)
    assert len(parts) == pieces
    assert "".join(p.src for p in parts) == src and "".join(p.tgt for p in parts) == tgt  # nothing lost
    assert all(len(p.src) <= 6_000 and len(p.tgt) <= 6_000 for p in parts)
    assert all(p.src.endswith("Lisboa. ") for p in parts[:-1])  # cut after a sentence, never after "Dr."
    if tgt.startswith("Dr"):  # the pieces keep each sentence beside its translation
        for p in parts:
            first = p.src.split("n.º ")[1].split()[0]
            assert p.tgt.startswith(f"Dr Rui Costa signed contract no. {first}")
    if inline:  # a wrapping tag's two halves in one piece: each piece's TMX stays well-formed
        assert [len(p.src_inline) for p in parts] == [2, 0, 0, 0, 0]
    assert [p.meta.get("part") for p in parts] == [f"{j}/{pieces}" for j in range(1, pieces + 1)]
    assert parts[0].meta["notes"] == ["n"] and "notes" not in parts[1].meta


def _tmx(units: list[tuple[str, str]]) -> str:
    body = "".join(f'<tu><tuv xml:lang="pt"><seg>{escape(s)}</seg></tuv><tuv xml:lang="en"><seg>{escape(t)}</seg>'
                   f"</tuv></tu>\n" for s, t in units)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header/><body>\n{body}</body></tmx>\n'


@pytest.mark.parametrize("policy, written, report", [
    ("split", 3 + 5, {"split_units": 1, "pieces": 5, "rejected_units": 0}),
    ("reject", 3, {"split_units": 0, "pieces": 0, "rejected_units": 1}),
])
def test_a_run_splits_or_rejects_a_unit_over_the_maximum(tmp_path, cfg, policy, written, report):
    from paranon.pipeline import run

    src = tmp_path / "tm.tmx"
    src.write_text(_tmx([("Bom dia.", "Good morning."), (" ".join(SENTENCES), " ".join(TRANSLATIONS)),
                         ("Obrigado.", "Thank you."), ("Até amanhã.", "See you tomorrow.")]), encoding="utf-8")
    c = json.loads(json.dumps(cfg))
    c["input"].update(max_segment_chars=6_000, long_segments=policy)
    c["index"]["enabled"] = False
    c["align"]["eflomal_iterations"] = 5  # a few long sentences: eflomal's own count would take a minute
    got = run(src, tmp_path / "out", c, quiet=True)
    assert got["units"]["written"] == written
    assert {k: got["long_segments"][k] for k in report} == report
    if policy == "reject":
        assert got["units"]["skipped_by_reason"] == {"segment too long": 1}
        assert "16," in got["units"]["skipped_examples"][0] and "6,000" in got["units"]["skipped_examples"][0]
    else:
        assert "Rui Costa" not in (tmp_path / "out" / "corpus.pt").read_text(encoding="utf-8")


@pytest.mark.parametrize("setting, value", [("long_segments", "truncate"), ("max_segment_chars", 5),
                                            ("max_segment_chars", "big")])
def test_bad_limit_settings_are_one_line_errors(cfg, setting, value):
    from paranon.corpora.formats import InputError

    c = json.loads(json.dumps(cfg))
    c["input"][setting] = value
    with pytest.raises(InputError, match=f"input.{setting}"):
        SegmentLimit.from_config(c)


BIG = 50_000_000


def _big_tmx(path: Path) -> None:
    sentence = "O Dr. Rui Costa, NIF 123456789, assinou o contrato em Lisboa. "
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(_tmx([("Bom dia.", "Good morning.")]).replace("</body></tmx>\n", ""))
        fh.write('<tu><tuv xml:lang="pt"><seg>')
        for _ in range(BIG // len(sentence) // 1000):
            fh.write(sentence * 1000)
        fh.write('</seg></tuv><tuv xml:lang="en"><seg>Dr Rui Costa signed.</seg></tuv></tu>\n')
        fh.write(_tmx([("Obrigado.", "Thank you.")]).split("<body>\n", 1)[1])


MEASURED = """
import json, resource, sys, time
t0 = time.time()
{body}
print(json.dumps({{"s": time.time() - t0, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  **out}}))
"""


@pytest.mark.slow
def test_a_50_mb_segment_is_rejected_or_split_within_a_minute_and_a_gigabyte(tmp_path):
    big = tmp_path / "big.tmx"
    _big_tmx(big)
    cfgfile = tmp_path / "reject.yaml"
    cfgfile.write_text("input: {long_segments: reject}\nindex: {enabled: false}\n", encoding="utf-8")
    run = f"""
from paranon.cli import main
code = main(["run", {str(big)!r}, "-o", {str(tmp_path / "out")!r}, "--config", {str(cfgfile)!r}, "--workers", "1",
             "--quiet"])
out = {{"code": code}}"""
    split = f"""
from paranon.config import load_config
from paranon.corpora.formats import Problems, read_corpus
from paranon.limits import SegmentLimit
limit, probs = SegmentLimit.from_config(load_config()), Problems()
sizes = [len(p.src) for p in limit.apply(read_corpus({str(big)!r}, "pt", "en", probs), probs)]
out = {{"pairs": len(sizes), "longest": max(sizes), "total": sum(sizes)}}"""
    results = {}
    for name, body in (("reject", run), ("split", split)):
        r = subprocess.run([sys.executable, "-c", MEASURED.format(body=body)], capture_output=True, text=True,
                           timeout=120)
        results[name] = json.loads(r.stdout.strip().splitlines()[-1])
    rej, spl = results["reject"], results["split"]
    assert rej["code"] == 0 and rej["s"] < 60 and rej["rss_mb"] < 1024, rej
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["units"]["written"] == 2 and report["units"]["skipped_by_reason"] == {"segment too long": 1}
    assert spl["s"] < 60 and spl["rss_mb"] < 1024 and spl["longest"] <= 100_000, spl
    assert spl["pairs"] > 2 + BIG // 100_000 and spl["total"] > BIG * 0.99
