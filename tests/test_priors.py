"""Dictionary priors for eflomal (align/priors.py): a dictionary pair decides a link the corpus alone cannot,
the align.priors setting's values, the shipped dictionary's licence line, and content words for eval align."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from paranon.align.aligners import make_aligner
from paranon.align.content_words import content_links, is_content_word
from paranon.align.priors import (
    BUILTIN_FILE,
    LICENCE_LINE,
    LINKS_FILE,
    PriorFiles,
    link_lines,
    prior_lines,
    read_dictionary,
    resolve,
    word_pair,
)

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


SETTINGS = [  # align.priors, src, tgt, the files it names (None: no priors)
    ("builtin", "pt", "en", PriorFiles(BUILTIN_FILE, LINKS_FILE, False)),
    ("builtin", "en", "pt", PriorFiles(BUILTIN_FILE, LINKS_FILE, True)),  # the PT-EN files serve EN->PT too
    ("builtin", "pt-BR", "en", PriorFiles(BUILTIN_FILE, LINKS_FILE, False)),
    ("wiktionary", "pt", "en", PriorFiles(BUILTIN_FILE, None, False)),     # the dictionary without the counts
    ("wiktionary", "en", "pt", PriorFiles(BUILTIN_FILE, None, True)),
    ("builtin", "es", "en", None),              # no shipped dictionary: eflomal runs without priors
    ("wiktionary", "es", "en", None),
    (None, "pt", "en", None),
    ("null", "pt", "en", None),
]


@pytest.mark.parametrize("setting,src,tgt,files", SETTINGS)
def test_the_priors_setting(setting, src, tgt, files):
    cfg = load_config(src=src, tgt=tgt)
    cfg["align"].update(method="eflomal", priors=setting)
    aligner, _ = make_aligner(cfg)
    assert aligner.priors == files


def test_priors_from_a_path(tmp_path):
    path = tmp_path / "mine.tsv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("# my firm's terms\nempreitada\tcontract\n")
    cfg = load_config()
    cfg["align"].update(method="eflomal", priors=str(path))
    aligner, _ = make_aligner(cfg)
    assert aligner.priors == PriorFiles(path, None, False)
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


COUNTED = "# counts\ncomissão\tcommission\t14\ncomissão\tcommittee\t12\ncomissão\tthe\t1\nde\tof\t3\n"
LINK_LINES = [  # prefix, alpha, swapped, the eflomal priors the counts give
    (0, 1.0, False, ["LEX\tcomissão\tcommission\t14\n", "LEX\tcomissão\tcommittee\t12\n",
                     "LEX\tde\tof\t3\n"]),  # a link seen once is left out; function words are kept
    (4, 1.0, False, ["LEX\tcomi\tcomm\t26\n", "LEX\tde\tof\t3\n"]),  # pairs that meet add up
    (0, 0.5, False, ["LEX\tcomissão\tcommission\t7\n", "LEX\tcomissão\tcommittee\t6\n",
                     "LEX\tde\tof\t1.5\n"]),
    (0, 1.0, True, ["LEX\tcommission\tcomissão\t14\n", "LEX\tcommittee\tcomissão\t12\n",
                    "LEX\tof\tde\t3\n"]),  # an EN->PT run reads the columns the other way round
]


@pytest.mark.parametrize("prefix,alpha,swap,expected", LINK_LINES)
def test_link_counts_become_weighted_priors(tmp_path, prefix, alpha, swap, expected):
    path = tmp_path / "links.tsv"
    path.write_text(COUNTED, encoding="utf-8")
    assert link_lines(path, lambda w: w.lower()[:prefix or None], alpha, swap) == expected


@pytest.mark.parametrize("line", ["comissão\tcommission\n", "comissão\tcommission\tmany\n", "\tof\t3\n"])
def test_a_bad_link_count_line_names_file_and_line(tmp_path, line):
    path = tmp_path / "links.tsv"
    path.write_text("de\tof\t3\n" + line, encoding="utf-8")
    with pytest.raises(InputError, match=r"links.tsv:2:"):
        link_lines(path, str.lower)


def test_the_shipped_link_counts_are_small_and_say_their_licence():
    assert LINKS_FILE.stat().st_size < 1_000_000
    with gzip.open(LINKS_FILE, "rt", encoding="utf-8") as fh:
        head = [fh.readline() for _ in range(5)]
    assert all(line.startswith("# ") for line in head)
    assert "CC BY-SA 4.0" in head[0] and "Tatoeba" in "".join(head)
    lines = link_lines(LINKS_FILE, str.lower)
    assert len(lines) > 5_000
    assert "LEX\tcomissão\tcommission" in "".join(lines)


def test_builtin_priors_add_the_link_counts_to_the_dictionary():
    cfg = load_config()
    cfg["align"].update(method="eflomal", priors="builtin")
    with_counts, _ = make_aligner(cfg)
    cfg["align"]["priors"] = "wiktionary"
    without, _ = make_aligner(cfg)
    assert with_counts._prior_lines() == without._prior_lines()  # the same dictionary
    assert without._link_lines() == [] and len(with_counts._link_lines()) > 5_000


# the shipped link counts are written by learn_links and read back by link_lines: every pair written is read
# back with its weight; pairs seen once, or a word the file could not hold (a tab splits a line, a "#" first
# opens a comment), are not written
LINK_COUNTS = [
    ({("contrato", "contract"): 5, ("de", "of"): 40}, ["LEX\tcontrato\tcontract\t5\n", "LEX\tde\tof\t40\n"]),
    ({("banco", "bank"): 1, ("banco", "bench"): 2}, ["LEX\tbanco\tbench\t2\n"]),
    ({("#", "#"): 4, ("n.º", "no."): 3}, ["LEX\tn.º\tno.\t3\n"]),
    ({("a\tb", "x"): 9, ("lei", "law"): 2}, ["LEX\tlei\tlaw\t2\n"]),
]


@pytest.mark.parametrize("counts, lines", LINK_COUNTS)
def test_link_counts_written_are_the_priors_read(tmp_path, counts, lines):
    from collections import Counter

    from paranon.align.learn_links import write_counts
    from paranon.align.priors import link_lines

    out = tmp_path / "links.tsv.gz"
    assert write_counts(Counter(counts), out) == len(lines)
    assert link_lines(out, str.lower) == lines
    assert not list(tmp_path.glob("*.part"))
