"""Dictionary priors for eflomal (align/priors.py): a dictionary pair decides a link the corpus alone cannot,
the align.priors setting's values, the shipped dictionary's licence line, and content words for eval align."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from paranon.align.aligners import make_aligner
from paranon.align.content_words import content_links, is_content_word
from paranon.align.priors import BUILTIN_FILE, LICENCE_LINE, prior_lines, read_dictionary, resolve, word_pair

from paranon.config import load_config
from paranon.errors import InputError

FRAMES = [  # sentence frames; {} is the two-word term, always together, so co-occurrence cannot tell its words apart
    ("a {} decide hoje", "the {} decides today"),
    ("a {} aprova o plano", "the {} approves the plan"),
    ("o relatório da {} foi lido", "the report of the {} was read"),
    ("a {} responde", "the {} answers"),
]

# Portuguese puts the adjective after the noun, English before it: without a dictionary eflomal links the
# words in order (comissão -> european); one dictionary pair makes the link cross (comissão -> commission).
# The last rows: a word spelt the same on both sides (a name) links to itself, whatever the dictionary holds.
TIES = [  # PT term, EN term, dictionary lines, PT word, a wrong link it gets without priors, its link with priors
    ("comissão europeia", "european commission", "comissão\tcommission\n", "comissão", "european", "commission"),
    ("tribunal geral", "general court", "tribunal\tcourt\n", "tribunal", "general", "court"),
    ("banco central", "central bank", "banco\tbank\n", "banco", "central", "bank"),
    ("relatório solbes", "solbes report", "gato\tcat\n", "solbes", "the", "solbes"),
    ("ministro varela", "varela minister", "gato\tcat\n", "varela", "minister", "varela"),
]


def _links_of(word: str, priors: str | None, max_pairs: int = 0) -> set[str]:
    term_pt, term_en = next((pt, en) for pt, en, *_ in TIES if word in pt.split())
    pairs = [(a.format(term_pt).split(), b.format(term_en).split()) for a, b in FRAMES]
    cfg = load_config()
    cfg["align"].update(method="eflomal", priors=priors, priors_max_pairs=max_pairs)
    aligner, _ = make_aligner(cfg)
    got = set()
    for (src, tgt), links in zip(pairs, aligner.align(pairs), strict=True):
        got |= {tgt[j] for i, j in links if src[i] == word}
    return got


@pytest.mark.parametrize("term_pt,term_en,dictionary,word,without,with_priors", TIES)
def test_a_dictionary_pair_decides_what_co_occurrence_cannot(tmp_path, term_pt, term_en, dictionary, word,
                                                               without, with_priors):
    path = tmp_path / "dict.tsv"
    path.write_text(dictionary, encoding="utf-8")
    alone = _links_of(word, None)
    assert without in alone and with_priors not in alone
    assert _links_of(word, str(path)) == {with_priors}


@pytest.mark.parametrize("max_pairs, priors_used", [
    (0, True),                 # 0: priors whatever the corpus's size
    (len(FRAMES), True),       # a corpus of exactly the limit still gets them
    (len(FRAMES) - 1, False),  # a larger corpus teaches the aligner itself: no priors
])
def test_priors_stop_above_priors_max_pairs(tmp_path, max_pairs, priors_used):
    path = tmp_path / "dict.tsv"
    path.write_text("comissão\tcommission\n", encoding="utf-8")
    got = _links_of("comissão", str(path), max_pairs)
    assert got == ({"commission"} if priors_used else _links_of("comissão", None))


def test_the_same_corpus_gets_the_same_links_with_priors(tmp_path):
    path = tmp_path / "dict.tsv"
    path.write_text("comissão\tcommission\n", encoding="utf-8")
    assert _links_of("europeia", str(path)) == _links_of("europeia", str(path))


SETTINGS = [  # align.priors, src, tgt, dictionary file (None: no priors), columns swapped
    ("builtin", "pt", "en", BUILTIN_FILE, False),
    ("builtin", "en", "pt", BUILTIN_FILE, True),     # the PT-EN dictionary serves EN->PT too
    ("builtin", "pt-BR", "en", BUILTIN_FILE, False),
    ("builtin", "es", "en", None, False),             # no shipped dictionary: eflomal runs without priors
    (None, "pt", "en", None, False),
    ("null", "pt", "en", None, False),
]


@pytest.mark.parametrize("setting,src,tgt,file,swap", SETTINGS)
def test_the_priors_setting(setting, src, tgt, file, swap):
    cfg = load_config(src=src, tgt=tgt)
    cfg["align"].update(method="eflomal", priors=setting)
    aligner, _ = make_aligner(cfg)
    assert aligner.priors == (None if file is None else (file, swap))


def test_priors_from_a_path(tmp_path):
    path = tmp_path / "mine.tsv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("# my firm's terms\nempreitada\tcontract\n")
    cfg = load_config()
    cfg["align"].update(method="eflomal", priors=str(path))
    aligner, _ = make_aligner(cfg)
    assert aligner.priors == (path, False)
    assert aligner._prior_lines() == ["LEX\tempr\tcont\t1\n"]  # normalized as the corpus is (eflomal_prefix 4)


@pytest.mark.parametrize("alpha", [0, -1.0])
def test_a_bad_prior_weight_is_a_clear_error(alpha):
    cfg = load_config()
    cfg["align"].update(method="eflomal", prior_alpha=alpha)
    with pytest.raises(ValueError, match="align.prior_alpha"):
        make_aligner(cfg)


def test_without_the_shipped_file_builtin_aligns_without_priors(tmp_path, monkeypatch):
    import paranon.align.priors as priors

    monkeypatch.setattr(priors, "BUILTIN_FILE", tmp_path / "gone.tsv.gz")
    assert priors.resolve("builtin", "pt", "en") is None


def test_a_missing_priors_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match=r"align.priors: .*nowhere.tsv: no such file"):
        resolve(str(tmp_path / "nowhere.tsv"), "pt", "en")


@pytest.mark.parametrize("line,where", [("comissão commission\n", ":1:"), ("a\tb\tc\n", ":1:"),
                                        ("tribunal\tcourt\n\tcourt\n", ":2:")])
def test_a_bad_dictionary_line_names_file_and_line(tmp_path, line, where):
    path = tmp_path / "bad.tsv"
    path.write_text(line, encoding="utf-8")
    with pytest.raises(InputError, match=rf"bad.tsv{where}"):
        list(read_dictionary(path))


def test_the_shipped_dictionary_is_small_and_says_its_licence():
    assert BUILTIN_FILE.stat().st_size < 5_000_000
    with gzip.open(BUILTIN_FILE, "rt", encoding="utf-8") as fh:
        first = fh.readline().rstrip("\n")
    assert first == LICENCE_LINE
    assert "CC BY-SA 3.0" in first and "Wiktionary" in first
    pairs = list(read_dictionary(BUILTIN_FILE))
    assert len(pairs) > 40_000
    assert ("comissão", "commission") in pairs and ("tribunal", "court") in pairs


WORD_PAIRS = [  # dictionary entry -> the pair that becomes a prior, or None
    (("Comissão", "Commission"), ("comissão", "commission")),
    (("amolar", "to sharpen"), ("amolar", "sharpen")),        # English verbs are glossed with "to"
    (("guarda-chuva", "umbrella"), ("guarda-chuva", "umbrella")),
    (("rede neural", "neural network"), None),                  # several words
    (("a", "the"), None),                                      # a function word
    (("de", "of"), None),
    (("artigo", "art. 5"), None),                              # signs and digits
]


@pytest.mark.parametrize("entry,expected", WORD_PAIRS)
def test_which_entries_become_priors(entry, expected):
    assert word_pair(*entry) == expected


def test_pairs_that_meet_after_normalizing_add_up(tmp_path):
    path = tmp_path / "d.tsv"
    path.write_text("contrato\tcontract\ncontratos\tcontracts\ncontratar\tto contract\n", encoding="utf-8")
    assert prior_lines(path, lambda w: w[:4]) == ["LEX\tcont\tcont\t3\n"]
    assert prior_lines(path, lambda w: w, alpha=0.5) == [
        "LEX\tcontratar\tcontract\t0.5\n", "LEX\tcontrato\tcontract\t0.5\n", "LEX\tcontratos\tcontracts\t0.5\n"]


CONTENT = [  # token, language, content word?
    ("Comissão", "pt", True),
    ("the", "en", False),
    ("The", "en", False),
    ("da", "pt", False),
    ("no", "pt", False),     # "no" (em + o): YAML must read it as a word, not as false
    ("no", "en", False),
    ("on", "en", False),
    (",", "en", False),
    (")", "pt", False),
    ("\u00ad", "pt", False),  # a lone soft hyphen
    ("2000", "en", True),
    ("Commission", "en", True),
    ("Kommission", "de", True),  # no list for the language: every word counts
]


@pytest.mark.parametrize("token,lang,expected", CONTENT)
def test_content_words(token, lang, expected):
    assert is_content_word(token, lang) is expected


def test_content_links_keep_a_content_word_linked_to_a_function_word():
    src, tgt = "a Comissão aprova".split(), "the Commission approves".split()
    links = {(0, 0), (1, 0), (1, 1), (2, 2)}
    assert content_links(links, src, tgt, "pt", "en") == {(1, 0), (1, 1), (2, 2)}


def test_the_shipped_function_word_lists_are_words():
    from paranon.align.content_words import function_words

    for lang in ("pt", "en"):
        words = function_words(lang)
        assert len(words) > 100 and all(isinstance(w, str) and w == w.lower() for w in words)


def test_eval_align_reports_content_words(tmp_path: Path):
    from paranon.align.evaluate import evaluate_alignment

    src, tgt, gold = tmp_path / "s", tmp_path / "t", tmp_path / "g"
    src.write_text("a comissão decide\no tribunal decide\n", encoding="utf-8")
    tgt.write_text("the commission decides\nthe court decides\n", encoding="utf-8")
    gold.write_text("0-0 1-1 2-2\n0-0 1-1 2-2\n", encoding="utf-8")
    cfg = load_config()
    cfg["align"]["method"] = "eflomal"
    res = evaluate_alignment(str(src), str(tgt), str(gold), cfg)
    assert res["content_words"]["gold_sure"] == 4  # the-a / the-o are function-word links
