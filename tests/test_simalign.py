"""simalign through a tiny BERT built here (random weights, 8 layers, a WordPiece vocab passed as ``vocab=``).

No model hub is reachable, so the real loading code (``SentenceAligner`` -> ``AutoModel``/``AutoTokenizer``
from a local folder) and paranon's batched alignment run over a checkpoint the test writes itself.
Random weights cannot align translations, but they make facts checkable without a trained model:
a sentence aligned with itself gives the diagonal (identical contexts give identical vectors), batched
links equal simalign's own one-pair-at-a-time links, and long segments are split rather than truncated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from paranon.align.aligners import SimAligner, make_aligner

from paranon.config import load_config

from .conftest import SAMPLE

WORDS = ("o a de do da banco contrato the of bank agreement pagamento payment euros 2019 Lisboa "
         "Maria Silva assinou signed em in").split()
CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789áàâãçéêíóôõúÁÉÍÓÚÇ.,;:-/()<>_ºª'\"%€&"


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory) -> Path:
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    folder = tmp_path_factory.mktemp("tiny-bert")
    tokens = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS, *CHARS, *("##" + c for c in CHARS)]
    vocab = {t: k for k, t in enumerate(dict.fromkeys(tokens))}
    tok = transformers.BertTokenizer(vocab=vocab, do_lower_case=False, strip_accents=False)
    tok.save_pretrained(folder)
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=8,
                                     num_attention_heads=2, intermediate_size=64, max_position_embeddings=512)
    transformers.BertModel(config).save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def aligner(tiny_bert) -> SimAligner:
    return SimAligner(str(tiny_bert), "itermax", layer=8, batch_size=4, allow_download=False)


def test_a_sentence_aligned_with_itself_gives_the_diagonal(aligner):
    s = "o banco assinou o contrato de pagamento em Lisboa".split()
    assert aligner.align([(s, s)]) == [[(i, i) for i in range(len(s))]]


@pytest.mark.parametrize("matching", ["itermax", "mwmf", "inter"])
def test_batched_links_equal_simaligns_own(tiny_bert, matching):
    al = SimAligner(str(tiny_bert), matching, layer=8, batch_size=3, allow_download=False)
    pairs = [("Maria Silva assinou o contrato".split(), "Maria Silva signed the agreement".split()),
             ("o pagamento de 2019".split(), "the 2019 payment".split()),
             ("banco".split(), "the bank of Lisboa".split()),
             ("o contrato do banco em euros".split(), "the bank agreement in euros".split())]
    batched = al.align(pairs)
    for (s, t), links in zip(pairs, batched, strict=True):
        assert links == al.aligner.get_word_aligns(s, t)[matching]


@pytest.mark.parametrize("src, tgt, why", [
    (["\u00ad"], ["payment"], "a lone soft hyphen has no subwords"),
    (["o", "\u00ad", "banco"], ["the", "bank"], "a soft hyphen in the middle keeps later indices"),
    ([], ["the", "bank"], "an empty side gets no links"),
])
def test_words_without_subwords_keep_their_index(aligner, src, tgt, why):
    (links,) = aligner.align([(src, tgt)])
    assert all(0 <= i < len(src) and 0 <= j < len(tgt) for i, j in links), why
    if not src:
        assert links == []


def test_a_long_segment_is_split_not_truncated(aligner):
    words = [f"{w}{k % 10}" for k in range(400) for w in ("banco",)]  # 400 words, 800+ subwords
    (links,) = aligner.align([(words, words)])
    assert max(i for i, _ in links) == len(words) - 1  # words past the 512-position window are aligned too
    assert {i for i, _ in links} == set(range(len(words)))


def test_auto_chooses_simalign_when_the_model_is_a_local_folder(tiny_bert):
    cfg = load_config()
    cfg["align"].update({"method": "auto", "model": str(tiny_bert), "layer": 8})
    al, why = make_aligner(cfg)
    assert al.name == "simalign" and str(tiny_bert) in why
    cfg["align"]["model"] = str(tiny_bert / "missing")
    al, why = make_aligner(cfg)
    assert al.name == "eflomal" and "not available locally" in why


def test_a_layer_the_model_lacks_is_a_clear_error(tiny_bert):
    al = SimAligner(str(tiny_bert), "itermax", layer=12, batch_size=32, allow_download=False)
    with pytest.raises(ValueError, match="only 8 layers"):
        al.align([(["banco"], ["bank"])])


def test_the_pipeline_runs_with_simalign_and_reports_it(tiny_bert, tmp_path, cfg):
    from paranon.pipeline import run

    c = json.loads(json.dumps(cfg))
    c["align"].update({"method": "simalign", "model": str(tiny_bert), "layer": 8})
    run(SAMPLE, tmp_path / "out", c, quiet=True)
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["aligner"].startswith("simalign")
    rows = [json.loads(line) for line in (tmp_path / "out" / "corpus.jsonl").open(encoding="utf-8")]
    assert rows and all("alignment" in r for r in rows)
    assert sum(bool(r["alignment"]) for r in rows) == sum(bool(r["src"] and r["tgt"]) for r in rows)
