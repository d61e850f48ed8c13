"""Dictionary repair of eflomal's links (align/repair.py), as examples of use."""

from __future__ import annotations

import pytest
from paranon.align.repair import dictionary_pairs, repair_files, repair_pair
from paranon.corpora.model import parse_pharaoh

DICTIONARY = dictionary_pairs([  # as align/priors.py writes them, normalized to 4-letter prefixes
    "LEX\tregu\tregu\t2\n", "LEX\tcomi\tcomm\t10\n", "LEX\tcons\tcoun\t1\n", "LEX\tacor\tagre\t1\n",
    "LEX\ttrib\tcour\t1\n", "LEX\tdire\tdire\t1\n", "LEX\tbanc\tbank\t1\n",
])


def norm(word: str) -> str:
    return word.lower()[:4]


def repaired(src: str, tgt: str, fwd: str, rev: str) -> tuple[set[str], set[str]]:
    s, t = src.split(), tgt.split()
    f, r = repair_pair(s, t, set(parse_pharaoh(fwd)), set(parse_pharaoh(rev)), DICTIONARY, norm)
    show = lambda links: {f"{s[i]}-{t[j]}" for i, j in links}  # noqa: E731
    return show(f), show(r)


@pytest.mark.parametrize("src,tgt,fwd,rev,added,removed", [
    # crossed titles: the unaligned Comissão takes Commission from Regulamento, which then gets Regulation
    ("Regulamento ( UE ) 1 da Comissão", "Commission Regulation ( EU ) 1", "0-0 1-2 2-3 3-4 4-5", "0-0",
     {"Comissão-Commission", "Regulamento-Regulation"}, {"Regulamento-Commission"}),
    ("Decisão do Conselho", "Council Decision", "0-0", "0-0", {"Conselho-Council"}, {"Decisão-Council"}),
    ("Diretiva da Comissão", "Commission Directive", "0-0", "", {"Comissão-Commission", "Diretiva-Directive"},
     {"Diretiva-Commission"}),
    # an unaligned word whose translation is free: a link, nothing removed
    ("o Acordo entra", "the Agreement enters", "0-0 2-2", "0-0", {"Acordo-Agreement"}, set()),
    ("o Tribunal decide", "the Court decides", "0-0", "2-2", {"Tribunal-Court"}, set()),
    ("o Banco paga", "the Bank pays", "", "0-0", {"Banco-Bank"}, set()),
])
def test_an_unaligned_content_word_gets_its_dictionary_translation(src, tgt, fwd, rev, added, removed):
    f, r = repaired(src, tgt, fwd, rev)
    before = {f"{src.split()[i]}-{tgt.split()[j]}" for i, j in parse_pharaoh(fwd)}
    assert added <= f and added <= r
    assert not (removed & f) and not (removed & r)
    assert f - before - added == set()


@pytest.mark.parametrize("src,tgt,fwd,rev", [
    # the translation is held by a word it also translates: left alone
    ("Comissão e Comissão", "Commission and", "0-0 1-1", "0-0 1-1"),
    ("Conselho Conselho", "Council", "0-0", "0-0"),
    ("Acordo e Acordo", "Agreement and", "0-0 1-1", "1-1"),
    # no dictionary translation in the pair
    ("a Comissão decide", "the Board decides", "0-0 2-2", "0-0"),
    ("o Tribunal decide", "the judges decide", "0-0", "0-0"),
    ("o Banco paga", "the lender pays", "", ""),
    # function words and punctuation are never repaired
    ("a Comissão , decide", "the Commission , decides", "1-1 3-3", "1-1"),
    ("de o Conselho", "of the Council", "2-2", "2-2"),
    ("e ou Acordo", "and or Agreement", "2-2", "2-2"),
])
def test_nothing_changes_without_a_free_dictionary_translation(src, tgt, fwd, rev):
    s, t = src.split(), tgt.split()
    f0, r0 = set(parse_pharaoh(fwd)), set(parse_pharaoh(rev))
    assert repair_pair(s, t, set(f0), set(r0), DICTIONARY, norm) == (f0, r0)


def test_files_are_repaired_in_place_and_extra_lines_kept(tmp_path):
    (tmp_path / "s").write_text("Regulamento da Comissão\no Acordo\n", encoding="utf-8")
    (tmp_path / "t").write_text("Commission Regulation\nthe Agreement\n", encoding="utf-8")
    (tmp_path / "f").write_text("0-0\n0-0\n2-2\n", encoding="utf-8")  # the last line: extra training text
    (tmp_path / "r").write_text("0-0\n\n2-2\n", encoding="utf-8")
    repair_files(tmp_path / "s", tmp_path / "t", tmp_path / "f", tmp_path / "r", DICTIONARY, norm)
    assert (tmp_path / "f").read_text(encoding="utf-8").splitlines() == ["0-1 2-0", "0-0 1-1", "2-2"]
    assert (tmp_path / "r").read_text(encoding="utf-8").splitlines() == ["0-1 2-0", "1-1", "2-2"]
