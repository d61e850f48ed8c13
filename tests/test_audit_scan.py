"""The audit's scanner: a unit of text matched once and looked up after finds what matching every block whole
finds, where a name runs over a line break, repeats, or sits in two files."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from paranon.audit import word_matcher
from paranon.audit_scan import Scanner, join_tokens, scan_spans, trie_pattern

NAME = "bento pimentel queiroga"


def scanner(forms: list[str], allow: list[str]) -> Scanner:
    return Scanner(word_matcher(forms), word_matcher(allow), join_tokens([*forms, *allow]))


def whole(texts: list[str], forms: list[str], allow: list[str]) -> Counter:
    """What the audit counted before units: the texts joined, matched whole."""
    return Counter(hit for _, hit in scan_spans("\n".join(texts), word_matcher(forms), word_matcher(allow)))


# files (each a list of texts, scanned one after the other by one scanner), forms, allowed strings, hits per file
CASES = [
    ("a name over a line break", [["Contrato com Bento", "Pimentel Queiroga assina."]], [NAME], [],
     [{(NAME, False, False): 1}]),
    ("a line of white space inside a name", [["com Bento", "   ", "Pimentel Queiroga"]], [NAME], [],
     [{(NAME, False, False): 1}]),
    ("a spacing accent before the break (a space once folded)", [["Bento\u00b4", "Pimentel Queiroga"]], [NAME], [],
     [{(NAME, False, False): 1}]),
    ("a line repeated is counted each time", [["o Sr. Bento Pimentel Queiroga", "o Sr. Bento Pimentel Queiroga"]],
     [NAME], [], [{(NAME, False, False): 2}]),
    ("the same text in two files is counted in each", [["Sr. Bento Pimentel Queiroga."], ["Sr. Bento Pimentel Queiroga."]],
     [NAME], [], [{(NAME, False, False): 1}, {(NAME, False, False): 1}]),
    ("a name in lowercase, one line after a name in capitals", [["BENTO PIMENTEL QUEIROGA", "bento pimentel queiroga"]],
     [NAME], [], [{(NAME, False, False): 1, (NAME, False, True): 1}]),
    ("an allowed string over a line break", [["pela União", "Europeia e pela União."]], ["uniao"], ["uniao europeia"],
     [{("uniao", True, False): 1, ("uniao", False, False): 1}]),
    ("no match inside a word at a line's start or end", [["xBento Pimentel Queiroga", "Bento Pimentel Queirogas"]],
     [NAME], [], [{}]),
    ("a final sigma: the block folded whole", [["ΟΔΟΣ Bento", "Pimentel Queiroga"]], [NAME, "οδοσ"], [],
     [{("οδοσ", False, False): 1, (NAME, False, False): 1}]),
    ("a number original in JSON glue and in text", [['{"start": 12, "end": 15}', "Artigo 12", "Artigo 12"]],
     ["12"], [], [{("12", False, True): 3}]),
]


@pytest.mark.parametrize("files, forms, allow, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_units_find_what_whole_blocks_find(files, forms, allow, expected):
    shared = scanner(forms, allow)
    got = [shared.scan(texts) for texts in files]
    assert got == [Counter(e) for e in expected]
    assert got == [whole(texts, forms, allow) for texts in files]
    assert got == [scanner(forms, allow).scan(texts, shared=False) for texts in files]


# forms that open alike (the matcher opens with their lead, then looks behind it for the word start), text, matches
LEAD_CASES = [
    ("one allowed string, at the text's start and after a word", ["jornal oficial"],
     "Jornal oficial; ojornal oficial; o jornal  oficial", ["jornal oficial", "jornal  oficial"]),
    ("a form and a longer one, not inside a word", ["uniao", "uniao europeia"],
     "uniao europeia, auniao, uniaoX, (uniao)", ["uniao europeia", "uniao"]),
    ("digits: not after a digit or a letter", ["12", "123"], "12 a12 123 1234 x-12", ["12", "123", "12"]),
    ("a line break before the lead", ["bento"], "o\nbento\nxbento", ["bento"]),
]


@pytest.mark.parametrize("forms, text, expected", [c[1:] for c in LEAD_CASES], ids=[c[0] for c in LEAD_CASES])
def test_forms_with_a_common_lead_match_as_whole_words(forms, text, expected):
    plain = re.compile(r"(?<!\w)(?:" + trie_pattern(forms) + r")(?!\w)")
    folded = text.lower()
    assert [m.group() for m in word_matcher(forms).finditer(folded)] == expected
    assert [m.span() for m in word_matcher(forms).finditer(folded)] == [m.span() for m in plain.finditer(folded)]
