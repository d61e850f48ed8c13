"""Evaluation you cannot tune to: named test/tuning sets, over-masking, per-document leaks, side mismatch, the
ARI of both sides, and the HAREM conversion, each checked on small gold cases written for these tests."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from paranon.align.evaluate import score_transfer
from paranon.anonymize.evaluate import Sentence, evaluate_ner, score
from paranon.corpora import evalsets
from paranon.corpora.evalsets import load_sets, resolve
from paranon.corpora.formats.gold import GoldPair
from paranon.corpora.harem import classify, read_harem
from paranon.corpora.model import Mention, SegmentPair

from paranon.cli import main
from paranon.errors import InputError

CATS = {"PERSON": "PERSON", "ORGANIZATION": "ORGANIZATION"}


def _sent(gold, pred, n=6, public=(), ignore=(), shown=None):
    s = Sentence(" ".join(f"w{k}" for k in range(n)), [(3 * k, 3 * k + 2) for k in range(n)], gold, pred,
                 public=list(public), ignore=set(ignore), shown=shown or {})
    s.covered = {k for a, b, _ in pred for k in range(a, b)}
    return s


# -- eval ner: over-masking, ignored tokens, leak reasons, per document --------------------------------------

@pytest.mark.parametrize(("gold", "pred", "public", "rate"), [
    # every masked token inside the gold name: nothing over-masked
    ([(0, 2, "PERSON")], [(0, 2, "PERSON")], [], 0.0),
    # the mask runs one token past the name: 1 of 3 masked tokens outside any ACNE
    ([(0, 2, "PERSON")], [(0, 3, "PERSON")], [], 1 / 3),
    # a word the gold leaves alone is masked
    ([], [(4, 5, "ORGANIZATION")], [], 1.0),
    # a public body masked while the policy masks public bodies: not over-masking
    ([], [(1, 3, "ORGANIZATION")], [(1, 3, "ORGANIZATION", False)], 0.0),
    # a public body masked that the policy (its allow lists) keeps visible: over-masking
    ([], [(1, 3, "ORGANIZATION")], [(1, 3, "ORGANIZATION", True)], 1.0),
])
def test_over_masking_is_the_share_of_masked_tokens_outside_gold_acnes(gold, pred, public, rate):
    res = score([("d", [_sent(gold, pred, public=public)])], CATS)
    assert res["over_masking"]["rate"] == pytest.approx(rate, abs=1e-4)


def test_a_mask_of_a_category_the_set_does_not_annotate_is_over_masking_but_not_a_false_positive():
    # a date masked in a set that marks only people and organisations: text the gold says is no ACNE
    res = score([("d", [_sent([(0, 2, "PERSON")], [(0, 2, "PERSON"), (4, 6, "DATE")])])], CATS)
    assert res["over_masking"] == {"rate": 0.5, "tokens": 2, "of": 4}
    assert res["over_masking_scored"] == {"rate": 0.0, "tokens": 0, "of": 2}
    assert res["token"]["untyped"]["fp"] == 0


def test_over_masked_tokens_are_named_by_the_golds_own_labels():
    # a place (not scored) masked as an organisation, a role noun masked as a person, one word unannotated
    s = _sent([(0, 1, "PERSON"), (2, 3, "LOCAL")], [(0, 1, "PERSON"), (2, 3, "ORGANIZATION"), (3, 5, "PERSON")])
    s.other = [(3, 4, "PESSOA/CARGO")]
    res = score([("d", [s])], CATS)
    assert res["over_masked_as"] == {"LOCAL": 1, "PESSOA/CARGO": 1, "unannotated": 1}


def test_public_bodies_are_not_acnes_but_are_counted_apart():
    s = _sent([(0, 1, "PERSON")], [(0, 1, "PERSON"), (2, 4, "ORGANIZATION")],
              public=[(2, 4, "ORGANIZATION", False), (5, 6, "ORGANIZATION", False)])
    res = score([("d", [s])], CATS)
    assert res["leaked_tokens"]["ORGANIZATION"] == {"leaked": 0, "gold": 0}  # no recall owed on public bodies
    assert res["public_masked"] == {"entities": 2, "masked": 1, "visible_by_policy": 0}


def test_tokens_the_gold_leaves_out_count_nowhere():
    # HAREM's OMITIDO: no gold there, and a mask there is neither a false positive nor over-masking
    s = _sent([(0, 1, "PERSON")], [(0, 1, "PERSON"), (3, 5, "PERSON")], ignore={3, 4})
    res = score([("d", [s])], CATS)
    assert res["exact"]["untyped"]["fp"] == 0
    assert res["over_masking"]["of"] == 1


@pytest.mark.parametrize(("shown", "why"), [
    ({}, {"public_id": 0, "place": 0, "allow": 0, "nothing": 2}),                     # plain misses
    ({2: "place", 3: "place"}, {"public_id": 0, "place": 2, "allow": 0, "nothing": 0}),  # a country as an actor
    ({2: "allow"}, {"public_id": 0, "place": 0, "allow": 1, "nothing": 1}),           # on the allow list
])
def test_leaked_tokens_are_split_by_what_paranon_made_of_them(shown, why):
    res = score([("d", [_sent([(2, 4, "ORGANIZATION")], [], shown=shown)])], CATS)
    assert res["leak_why"]["ORGANIZATION"] == why


def test_by_doc_puts_the_leakiest_document_first_and_shows_strings_only_when_asked():
    clean = ("contrato-a", [_sent([(0, 2, "PERSON")], [(0, 2, "PERSON")])])
    leaky = ("contrato-b", [_sent([(0, 2, "PERSON"), (3, 4, "ORGANIZATION")], [(5, 6, "PERSON")])])
    res = score([clean, leaky], CATS, strings=True)
    first, second = res["by_doc"]
    assert first["doc"] == "contrato-b" and first["leaked"] == {"ORGANIZATION": 1, "PERSON": 2}
    assert first["gold_tokens"] == 3 and first["over_masked"] == 1
    assert first["leaked_strings"] == ["PERSON: w0 w1", "ORGANIZATION: w3"]
    assert second["leaked"] == {}
    figures = score([clean, leaky], CATS, strings=False)
    assert "leaked_strings" not in figures["by_doc"][0]


# -- eval transfer: side mismatch, ARI of both sides, target over-masking ------------------------------------

def _pair(k, src, tgt, src_ents, tgt_ents, doc="d"):
    def ents(text, items):
        out = []
        for word, ent, *public in items:
            i = text.index(word)
            out.append({"start": i, "end": i + len(word), "category": "PERSON", "entity": ent,
                        **({"public": True} if public else {})})
        return out
    return GoldPair(SegmentPair(f"{doc}:{k}", doc, src, tgt), ents(src, src_ents), ents(tgt, tgt_ents))


def _result(g, src_found, tgt_found):
    def mentions(text, items):
        return [Mention(text.index(w), text.index(w) + len(w), "PERSON", w, "test", entity=n) for w, n in items]

    def hide(text, ms):
        for m in sorted(ms, key=lambda m: -m.start):
            text = text[:m.start] + f"<NAME{m.entity}_PERSON>" + text[m.end:]
        return text
    src_m, tgt_m = mentions(g.pair.src, src_found), mentions(g.pair.tgt, tgt_found)
    return SimpleNamespace(src_mentions=src_m, tgt_mentions=tgt_m,
                           anonymized=SimpleNamespace(src=hide(g.pair.src, src_m), tgt=hide(g.pair.tgt, tgt_m)))


@pytest.mark.parametrize(("src_found", "tgt_found", "tgt_gold", "mismatch", "gold_agrees"), [
    # both sides carry entity 1
    ([("Ana", 1)], [("Ana", 1)], [("Ana", "A")], 0, 0),
    # the transfer missed the English mention: the sides differ although the gold has Ana on both
    ([("Ana", 1)], [], [("Ana", "A")], 1, 1),
    # the English side carries another number than the Portuguese one
    ([("Ana", 1)], [("Ana", 2)], [("Ana", "A")], 1, 1),
])
def test_side_mismatch_counts_pairs_whose_sides_carry_different_numbers(src_found, tgt_found, tgt_gold,
                                                                         mismatch, gold_agrees):
    g = _pair(1, "A Ana assinou.", "Ana signed.", [("Ana", "A")], tgt_gold)
    res = score_transfer([g], [_result(g, src_found, tgt_found)], set())
    assert res["side_mismatch"]["pairs"] == mismatch
    assert res["side_mismatch"]["where_gold_agrees"] == gold_agrees


def test_side_mismatch_where_the_translation_drops_a_name():
    g = _pair(1, "A Ana e o Rui assinaram.", "Ana signed.", [("Ana", "A"), ("Rui", "R")], [("Ana", "A")])
    res = score_transfer([g], [_result(g, [("Ana", 1), ("Rui", 2)], [("Ana", 1)])], set())
    assert res["side_mismatch"] == {"pairs": 1, "of": 1, "rate": 1.0, "where_gold_agrees": 0}


@pytest.mark.parametrize(("tgt_numbers", "ari_src", "ari_both"), [
    ((1, 2), 1.0, 1.0),    # the same numbers on both sides
    ((2, 1), 1.0, -0.5),   # English swaps them: the source side alone cannot see it
])
def test_coreference_ari_of_both_sides_together(tgt_numbers, ari_src, ari_both):
    g = _pair(1, "A Ana viu o Rui.", "Ana saw Rui.", [("Ana", "A"), ("Rui", "R")], [("Ana", "A"), ("Rui", "R")])
    found = _result(g, [("Ana", 1), ("Rui", 2)], [("Ana", tgt_numbers[0]), ("Rui", tgt_numbers[1])])
    res = score_transfer([g], [found], set())
    assert res["coref_ari"] == pytest.approx(ari_src)
    assert res["coref_ari_both"] == pytest.approx(ari_both)


def test_target_over_masking_and_leaks_without_strings_for_test_sets():
    g = _pair(1, "A Ana e o Rui assinaram o contrato.", "Ana and Rui signed the contract.",
              [("Ana", "A"), ("Rui", "R")], [("Ana", "A"), ("Rui", "R")])
    found = _result(g, [("Ana", 1), ("Rui", 2)], [("Ana", 1), ("contract", 3)])
    res = score_transfer([g], [found], set(), strings=False)
    assert res["over_masking"]["tgt"] == {"rate": 0.5, "tokens": 1, "of": 2}
    assert res["leaks"] == 1 and res["leaked"] == [{"id": "d:1", "side": "tgt", "category": "PERSON"}]
    shown = score_transfer([g], [found], set(), strings=True)
    assert shown["leaked"][0]["text"] == "Rui"


def test_public_gold_entities_are_reported_apart_from_recall():
    g = _pair(1, "O Banco Norte e a Ana.", "Banco Norte and Ana.",
              [("Banco Norte", "B", True), ("Ana", "A")], [("Banco Norte", "B", True), ("Ana", "A")])
    found = _result(g, [("Ana", 1), ("Banco Norte", 2)], [("Ana", 1)])
    res = score_transfer([g], [found], set())
    assert res["src_recall"]["all"] == 1.0 and res["tgt_recall"]["all"] == 1.0 and res["leaks"] == 0
    assert res["public_masked"] == {"src": {"entities": 1, "masked": 1}, "tgt": {"entities": 1, "masked": 0}}
    assert res["over_masking"]["src"]["tokens"] == 0  # the policy masks public bodies: not over-masking
    kept = score_transfer([g], [found], {"banco norte"})  # a policy that keeps it visible
    assert kept["over_masking"]["src"] == {"rate": 0.6667, "tokens": 2, "of": 3}


# -- HAREM --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("categ", "tipo", "expected"), [
    ("PESSOA", "INDIVIDUAL", ("PERSON", "", False)),
    ("PESSOA", "CARGO", None),                                         # a role, not a name
    ("ORGANIZACAO", "EMPRESA", ("ORGANIZATION", "COMPANY", False)),
    ("ORGANIZACAO", "ADMINISTRACAO", ("ORGANIZATION", "ADMIN", False)),
    ("ORGANIZACAO", "INSTITUICAO", ("ORGANIZATION", "INSTITUTION", False)),
    ("ORGANIZACAO", "SUB", None),
    ("LOCAL", "HUMANO", None),
    # ambiguous: read pairwise, kept if any reading is kept
    ("PESSOA|ORGANIZACAO", "GRUPOMEMBRO|INSTITUICAO", ("ORGANIZATION", "INSTITUTION", True)),
    ("LOCAL|ORGANIZACAO", "HUMANO|ADMINISTRACAO", ("ORGANIZATION", "ADMIN", True)),
    ("ORGANIZACAO", "SUB|EMPRESA", ("ORGANIZATION", "COMPANY", True)),
    ("PESSOA|ABSTRACCAO", "INDIVIDUAL", ("PERSON", "", True)),          # lists of unequal length: every pair
    ("PESSOA|LOCAL", "CARGO|HUMANO", None),
])
def test_harem_categories_and_types(categ, tipo, expected):
    assert classify(categ, tipo) == expected


HAREM1 = """<DOC>
<DOCID>T-1</DOCID>
<GENERO>Web</GENERO>
<ORIGEM>PT</ORIGEM>
<TEXTO>
A <PESSOA TIPO="INDIVIDUAL" MORF="F,S">Marta Quintela</PESSOA> trabalha na <ORGANIZACAO TIPO="EMPRESA" MORF="F,S">Têxteis Aveleda</ORGANIZACAO>.
O <PESSOA TIPO="CARGO" MORF="M,S">presidente</PESSOA> da <ORGANIZACAO TIPO="ADMINISTRACAO" MORF="F,S">Câmara de Vilar
Seco</ORGANIZACAO> falou em <LOCAL TIPO="ADMINISTRATIVO">Lisboa</LOCAL>.
<PESSOA|ORGANIZACAO TIPO="GRUPOMEMBRO|INSTITUICAO" MORF="M,P">Os Amigos do Rio</PESSOA|ORGANIZACAO> reuniram.
<OMITIDO><PESSOA TIPO="INDIVIDUAL">Zé Ninguém</PESSOA></OMITIDO> não conta.
</TEXTO>
</DOC>
"""

HAREM2 = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE colHAREM>
<colHAREM versao="teste">
  <DOC DOCID="H2-t1">
    <p>
      Ontem
      <EM ID="t1-1" CATEG="PESSOA" TIPO="INDIVIDUAL">Rui Calado</EM>
      visitou a <EM ID="t1-2" CATEG="ORGANIZACAO" TIPO="EMPRESA">Moagem &amp; Filhos</EM>
    </p>
    <p>
<OMITIDO>      <EM ID="t1-3" CATEG="ORGANIZACAO" TIPO="INSTITUICAO">Liga dos Pombais</EM></OMITIDO>
      e <EM ID="t1-4" CATEG="LOCAL|ORGANIZACAO" TIPO="HUMANO|ADMINISTRACAO">Vila Franca</EM>
    </p>
  </DOC>
</colHAREM>
"""


def _collection(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode("iso-8859-1"))
    return p


def _view(seg):
    scored = [(seg.text[e.start:e.end], e.category, e.subtype) for e in seg.entities if e.scored]
    notes = [(seg.text[e.start:e.end], e.label) for e in seg.entities if not e.scored]
    return scored, notes, [seg.text[a:b] for a, b in seg.ignore]


def test_first_harem_documents_segments_and_labels(tmp_path: Path):
    (doc,) = read_harem(_collection(tmp_path, "h1.txt", HAREM1))
    assert doc.doc == "T-1"
    texts = [s.text for s in doc.segments]
    assert texts == ["A Marta Quintela trabalha na Têxteis Aveleda.",
                     "O presidente da Câmara de Vilar Seco falou em Lisboa.",  # a name across a line break
                     "Os Amigos do Rio reuniram.", "Zé Ninguém não conta."]
    views = [_view(s) for s in doc.segments]
    assert views[0][0] == [("Marta Quintela", "PERSON", ""), ("Têxteis Aveleda", "ORGANIZATION", "COMPANY")]
    assert views[1] == ([("Câmara de Vilar Seco", "ORGANIZATION", "ADMIN")],
                        [("presidente", "PESSOA/CARGO"), ("Lisboa", "LOCAL/ADMINISTRATIVO")], [])
    assert views[2][0] == [("Os Amigos do Rio", "ORGANIZATION", "INSTITUTION")]
    assert doc.segments[2].entities[0].ambiguous
    # OMITIDO: the text stays, the name inside is not scored and its characters are ignored
    assert views[3] == ([], [("Zé Ninguém", "PESSOA/INDIVIDUAL")], ["Zé Ninguém"])


@pytest.mark.parametrize(("alt", "text", "scored"), [
    # the first reading marks no name, the second does: the second is used
    ('<ALT><ORGANIZACAO TIPO="SUB">Museu do Linho</ORGANIZACAO> de Ovar | '
     '<ORGANIZACAO TIPO="INSTITUICAO">Museu do Linho de Ovar</ORGANIZACAO></ALT>',
     "Museu do Linho de Ovar abriu.", [("Museu do Linho de Ovar", "ORGANIZATION")]),
    # both readings mark a name: the wider one
    ('<ALT><PESSOA TIPO="INDIVIDUAL">Rosa</PESSOA> Tavares | <PESSOA TIPO="INDIVIDUAL">Rosa Tavares</PESSOA></ALT>',
     "Rosa Tavares abriu.", [("Rosa Tavares", "PERSON")]),
    # equal readings: the first
    ('<ALT><PESSOA TIPO="INDIVIDUAL">Leal</PESSOA> | <ORGANIZACAO TIPO="EMPRESA">Leal</ORGANIZACAO></ALT>',
     "Leal abriu.", [("Leal", "PERSON")]),
])
def test_harem_alt_uses_the_reading_that_marks_most_name_text(tmp_path: Path, alt, text, scored):
    body = HAREM1.split("<TEXTO>")[0] + f"<TEXTO>\n{alt} abriu.\n</TEXTO>\n</DOC>\n"
    (doc,) = read_harem(_collection(tmp_path, "h1.txt", body))
    (seg,) = doc.segments
    assert seg.text == text
    assert [(seg.text[e.start:e.end], e.category) for e in seg.entities if e.scored] == scored


def test_second_harem_paragraphs_entities_and_omitido(tmp_path: Path):
    (doc,) = read_harem(_collection(tmp_path, "h2.xml", HAREM2))
    assert doc.doc == "H2-t1"
    first, second = doc.segments
    assert first.text == "Ontem Rui Calado visitou a Moagem & Filhos"
    assert _view(first)[0] == [("Rui Calado", "PERSON", ""), ("Moagem & Filhos", "ORGANIZATION", "COMPANY")]
    assert second.text == "Liga dos Pombais e Vila Franca"
    scored, notes, ignored = _view(second)
    assert scored == [("Vila Franca", "ORGANIZATION", "ADMIN")]
    assert notes == [("Liga dos Pombais", "ORGANIZACAO/INSTITUICAO")] and ignored == ["Liga dos Pombais"]


def test_not_a_harem_file_is_one_line_error(tmp_path: Path):
    p = tmp_path / "x.txt"
    p.write_text("just text\n", encoding="utf-8")
    with pytest.raises(InputError, match="x.txt: neither a First HAREM"):
        read_harem(p)


def test_eval_ner_reads_a_harem_collection(tmp_path: Path, cfg):
    res = evaluate_ner(_collection(tmp_path, "h2.xml", HAREM2), None, None, cfg)
    assert res["format"] == "harem" and res["documents"] == 1 and res["sentences"] == 2
    assert set(res["leak_rate"]) == {"PERSON", "ORGANIZATION"}
    assert res["leaked_tokens"]["ORGANIZATION"]["gold"] == 5  # Moagem & Filhos, Vila Franca; OMITIDO left out


# -- named sets and the command line ------------------------------------------------------------------------

def _sets_file(tmp_path: Path, test_path: str, tune_path: str) -> Path:
    p = tmp_path / "evalsets.yaml"
    p.write_text(f"test:\n  held-out:\n    path: {test_path}\n    also: [{test_path}.copy]\n    format: jsonl\n"
                 f"    transfer: true\ntuning:\n  tune:\n    path: {tune_path}\n    format: jsonl\n    transfer: true\n"
                 f"  one-sided:\n    path: {tune_path}\n    format: jsonl\n", encoding="utf-8")
    return p


@pytest.mark.parametrize(("spec", "name", "kind"), [
    ("held-out", "held-out", "test"),
    ("gold/held.jsonl", "held-out", "test"),        # named by its path, a test set stays a test set
    ("gold/held.jsonl.copy", "held-out", "test"),   # ... or by another path of the same set
    ("tune", "tune", "tuning"),
    ("other/mine.jsonl", "other/mine.jsonl", "other"),
])
def test_sets_are_resolved_by_name_or_path(tmp_path: Path, monkeypatch, spec, name, kind):
    monkeypatch.chdir(tmp_path)
    sets = load_sets(_sets_file(tmp_path, "gold/held.jsonl", "gold/tune.jsonl"), tmp_path)
    es = resolve(spec, sets)
    assert (es.name, es.kind, es.figures_only) == (name, kind, kind == "test")


def test_the_shipped_sets_name_the_test_sets():
    kinds = {s.name: s.kind for s in load_sets()}
    assert kinds == {"lener-dev": "test", "harem1": "test", "harem2": "test", "harem1-names": "test",
                     "harem2-names": "test", "contracts-test": "test", "blind-test": "test",
                     "blind2-test": "test",
                     "dgt-precision": "test", "lener-train": "tuning", "contracts-tune": "tuning", "sample": "tuning",
                     "general-tune": "tuning", "contracts-extra": "tuning", "contracts-extra2": "tuning",
                     "contracts-extra3": "tuning"}


def test_an_unknown_set_name_is_an_error():
    with pytest.raises(InputError, match="no such set"):
        resolve("lener-test")


GOLD_LEAK = {"id": "c:1", "doc": "c", "src": "A mesa de Ana Figueiredo.", "tgt": "The table of Ana Figueiredo.",
             # "mesa" marked as a name for the test: paranon leaves it visible, a leak to show or hide
             "src_entities": [{"start": 2, "end": 6, "category": "PERSON", "entity": "T"},
                              {"start": 10, "end": 24, "category": "PERSON", "entity": "A"}],
             "tgt_entities": [{"start": 13, "end": 27, "category": "PERSON", "entity": "A"}]}


@pytest.fixture()
def leaky_sets(tmp_path: Path, monkeypatch):
    gold_dir = tmp_path / "gold"
    gold_dir.mkdir()
    for name in ("held.jsonl", "tune.jsonl"):
        (gold_dir / name).write_text(json.dumps(GOLD_LEAK, ensure_ascii=False) + "\n", encoding="utf-8")
    monkeypatch.setattr(evalsets, "SETS_FILE", _sets_file(tmp_path, "gold/held.jsonl", "gold/tune.jsonl"))
    monkeypatch.setattr(evalsets, "ROOT", tmp_path)
    return gold_dir


def test_several_sets_one_row_each_and_one_json_object(leaky_sets, capsys):
    assert main(["eval", "ner", "--gold", "held-out", "--gold", "tune", "--quiet"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["set", "kind", "docs", "sents"]
    assert [line.split()[:2] for line in table[2:4]] == [["held-out", "test"], ["tune", "tuning"]]
    assert main(["eval", "ner", "--gold", "held-out", "--gold", "tune", "--json", "--quiet"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert list(res["sets"]) == ["held-out", "tune"]
    assert res["sets"]["tune"]["leak_rate"]["PERSON"] == pytest.approx(1 / 3, abs=1e-4)  # mesa: 1 of 3 tokens


@pytest.mark.parametrize(("args", "shows_string"), [
    (["--gold", "tune", "--by-doc"], True),                             # a tuning set may show its leaks
    (["--gold", "tune", "--by-doc", "--figures-only"], False),          # unless told not to
    (["--gold", "held-out", "--by-doc"], False),                        # a test set never does
    (["--gold", str(Path("gold") / "held.jsonl"), "--by-doc"], False),  # however it is named
])
def test_test_sets_are_looked_at_only_as_figures(leaky_sets, monkeypatch, capsys, args, shows_string):
    monkeypatch.chdir(leaky_sets.parent)
    assert main(["eval", "ner", *args, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert ("mesa" in out) == shows_string
    assert "leaked PER" in out  # the per-document table is there either way


def test_an_absent_named_set_is_skipped_with_a_note(leaky_sets, capsys):
    (leaky_sets / "held.jsonl").unlink()
    assert main(["eval", "ner", "--gold", "held-out", "--gold", "tune", "--json", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "test set held-out skipped" in captured.err
    assert list(json.loads(captured.out)["sets"]) == ["tune"]


def test_eval_transfer_several_sets_figures_only_for_test_sets(leaky_sets, capsys):
    assert main(["eval", "transfer", "--gold", "held-out", "--gold", "tune", "--json", "--quiet"]) == 0
    res = json.loads(capsys.readouterr().out)["sets"]
    assert all("text" not in x for x in res["held-out"]["leaked"])
    assert "side_mismatch" in res["tune"] and "coref_ari_both" in res["tune"]


def test_eval_transfer_skips_a_named_set_without_a_target_side(leaky_sets, capsys):
    assert main(["eval", "transfer", "--gold", "one-sided", "--gold", "tune", "--json", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "tuning set one-sided skipped: it has no target side" in captured.err
    assert list(json.loads(captured.out)["sets"]) == ["tune"]
