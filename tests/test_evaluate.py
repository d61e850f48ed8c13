"""The eval commands: scorers checked on hand-made cases, then run on the bundled sample and the shared gold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paranon.align.evaluate import _ari, read_gold_links, score_links
from paranon.anonymize.evaluate import Sentence, _conll_documents, score

from paranon.cli import main
from paranon.errors import InputError
from tests.conftest import GOLD, SHARED, needs_shared

MAP = {"PESSOA": "PERSON", "ORGANIZACAO": "ORGANIZATION"}


def _sent(gold, pred, n=6):
    s = Sentence(" ".join(["w"] * n), [(2 * k, 2 * k + 1) for k in range(n)], gold, pred)
    s.covered = {k for a, b, _ in pred for k in range(a, b)}
    return s


@pytest.mark.parametrize(("gold", "pred", "exact_tp", "partial_tp", "leak"), [
    # exact hit
    ([(0, 2, "PESSOA")], [(0, 2, "PERSON")], 1, 1.0, 0.0),
    # boundary error: not exact, half in partial, one of two tokens leaked
    ([(0, 2, "PESSOA")], [(1, 2, "PERSON")], 0, 0.5, 0.5),
    # missed entirely
    ([(0, 2, "PESSOA")], [], 0, 0.0, 1.0),
    # a prediction on an unmapped gold type is a false positive; DATE predictions are left out
    ([(3, 4, "TEMPO")], [(3, 4, "ORGANIZATION"), (5, 6, "DATE")], 0, 0.0, 0.0),
])
def test_ner_scores(gold, pred, exact_tp, partial_tp, leak):
    res = score([("d", [_sent(gold, pred)])], MAP)
    assert res["exact"]["untyped"]["tp"] == exact_tp
    assert res["partial"]["untyped"]["tp"] == partial_tp
    if any(c == "PESSOA" for *_, c in gold):
        assert res["leak_rate"]["PERSON"] == leak
    if gold and gold[0][2] == "TEMPO":
        assert res["exact"]["untyped"]["fp"] == 1


def test_typed_scores_need_the_right_category():
    res = score([("d", [_sent([(0, 2, "PESSOA")], [(0, 2, "ORGANIZATION")])])], MAP)
    assert res["exact"]["untyped"]["tp"] == 1
    assert res["exact"]["typed"]["tp"] == 0
    assert res["leak_rate"]["PERSON"] == 0.0  # hidden, even if under the wrong label


@pytest.mark.parametrize(("conll", "gold"), [
    # IOB2: B- opens an entity, so two names side by side stay two
    ("Rui B-PESSOA\nAlves I-PESSOA\nviu O\nEva B-PESSOA\nLuz B-PESSOA\n",
     [(0, 2, "PESSOA"), (3, 4, "PESSOA"), (4, 5, "PESSOA")]),
    # IO (Paramopama, miniHAREM): a run of the same bare tag is one entity
    ("a O\nLoja ORGANIZACAO\nNova ORGANIZACAO\nde O\nTeresa PESSOA\nMaia PESSOA\n",
     [(1, 3, "ORGANIZACAO"), (4, 6, "PESSOA")]),
    # IO: a change of tag ends the entity
    ("Carla PESSOA\nBarreiro LOCAL\n", [(0, 1, "PESSOA"), (1, 2, "LOCAL")]),
])
def test_conll_gold_reads_iob2_and_io_tags(tmp_path: Path, conll, gold):
    (tmp_path / "d.conll").write_text(conll, encoding="utf-8")
    (doc, sents), = _conll_documents(tmp_path)
    assert [s.gold for s in sents] == [gold]


@pytest.mark.parametrize("tag", ["X-ORGANIZACAO", "B-", "B-PESSOA-2", "I-"])
def test_a_conll_tag_neither_iob2_nor_io_names_the_line(tmp_path: Path, tag):
    (tmp_path / "d.conll").write_text(f"Ana O\nSilva {tag}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"d\.conll:2: .* is not an IOB2 or IO tag"):
        list(_conll_documents(tmp_path))


@pytest.mark.parametrize(("true", "pred", "ari"), [
    (["a", "a", "b", "b"], ["1", "1", "2", "2"], 1.0),
    (["a", "a", "b", "b"], ["7", "7", "3", "3"], 1.0),   # numbers are labels, not values
    (["a", "a", "b", "b"], ["1", "2", "1", "2"], -0.5),
])
def test_adjusted_rand_index(true, pred, ari):
    assert _ari(true, pred) == pytest.approx(ari)


def test_alignment_scores_and_possible_links(tmp_path: Path):
    gold = tmp_path / "g.align"
    gold.write_text("0-0 1-1 2-2-p\n0-0\n", encoding="utf-8")
    sure, possible, has_p = read_gold_links(gold)
    assert has_p and sure[0] == {(0, 0), (1, 1)} and (2, 2) in possible[0]
    res = score_links([[(0, 0), (2, 2)], [(0, 0), (0, 1)]], sure, possible)
    assert res["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert res["precision"] == pytest.approx(3 / 4, abs=1e-4)


def test_bad_gold_link_names_the_line(tmp_path: Path, capsys):
    src, tgt, gold = (tmp_path / n for n in ("s", "t", "g"))
    src.write_text("a b\n", encoding="utf-8")
    tgt.write_text("x y\n", encoding="utf-8")
    gold.write_text("0-0 5-1\n", encoding="utf-8")
    assert main(["eval", "align", "--src", str(src), "--tgt", str(tgt), "--gold", str(gold)]) == 2
    assert f"{gold}:1: link 5-1 is outside the sentence" in capsys.readouterr().err


def test_eval_ner_on_the_sample_gold_hides_every_category(capsys):
    assert main(["eval", "ner", "--gold", str(GOLD), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    for cat, m in res["token"]["per_category"].items():
        assert m["recall"] >= 0.99, cat


def test_eval_transfer_on_the_sample_gold(capsys):
    assert main(["eval", "transfer", "--gold", str(GOLD), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["leaks"] == 0, res["leaked"]
    assert res["tgt_recall"]["all"] >= 0.98
    assert res["number_agreement"] >= 0.95
    assert res["coref_ari"] >= 0.95


LENER = SHARED / "lener-br" / "dev"


@needs_shared(LENER)
def test_eval_ner_on_lener_br_dev_reads_conll_documents(capsys):
    assert main(["eval", "ner", "--gold", str(LENER), "--map", "PESSOA=PERSON,ORGANIZACAO=ORGANIZATION", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["documents"] > 1  # one document per .conll file
    assert set(res["leak_rate"]) == {"PERSON", "ORGANIZATION"}
    assert res["leak_rate"]["PERSON"] < 0.05  # recall first: at most a few person tokens stay visible


GOLDEN = SHARED / "golden-align-enpt"


@needs_shared(GOLDEN)
def test_eval_align_on_the_golden_collection(capsys):
    args = ["eval", "align", "--src", str(GOLDEN / "golden_enpt.pt"), "--tgt", str(GOLDEN / "golden_enpt.en"),
            "--gold", str(GOLDEN / "golden_enpt.pt-en.sure.align"), "--aligner", "eflomal", "--json",
            "--train-src", str(SHARED / "dgt-tm-pt-en" / "dgt_pt-en.pt"),
            "--train-tgt", str(SHARED / "dgt-tm-pt-en" / "dgt_pt-en.en")]
    assert main(args) == 0
    res = json.loads(capsys.readouterr().out)
    assert "only sure links" in res["note"]
    assert res["recall"] > 0.6
