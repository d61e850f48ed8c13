"""Lexical priors for eflomal from a bilingual dictionary, so a small translation memory aligns well offline.

eflomal learns p(target word | source word) from the corpus alone; on a few hundred pairs a frequent
function word (``the``) can win over the rare content word it should link to (``Comissão`` ->
``Commission``). A dictionary pair ``comissão<TAB>commission`` becomes a Dirichlet prior: eflomal starts as
if it had already seen the two words linked ``alpha`` times (its own prior is 0.001), in both directions.

``align.priors`` picks the dictionary: ``builtin`` (the shipped ``data/priors_pt_en.tsv.gz``, single-word
pairs from English Wiktionary, CC BY-SA 3.0, and the shipped link counts of general text, below),
``wiktionary`` (the Wiktionary pairs alone), ``null`` (none) or a path to a file of ``source<TAB>target``
lines (plain or ``.gz``; ``#`` lines are comments).

``builtin`` adds what a bigger corpus would teach, the way eflomal's own ``makepriors`` reuses one:
``data/links_pt_en.tsv.gz`` holds ``pt<TAB>en<TAB>count``, how often eflomal linked the two words in 18,331
general-domain pairs (``learn_links.py``; CC BY-SA 4.0, see the README). Each count becomes a prior of
``count * alpha``, as if the aligner had seen those sentences, function words and punctuation included (a
count is evidence, not a dictionary's list of senses); links seen once are left out. Entries are normalized as the corpus
is (lower case, the first ``eflomal_prefix`` letters), so ``contratos`` in the corpus meets ``contrato`` in
the dictionary. Pairs of several words, and pairs with a function word on either side (the corpus
teaches those well; a dictionary lists a dozen senses of ``a``) give no prior. With any dictionary, a word
found on both sides of the corpus also gets a prior to itself (names, numbers, codes: ``solbes``, ``2000``).

``python -m paranon.align.priors build WIKTIONARY.gz OUT.gz`` rebuilds the shipped file from the
Wiktionary pairs (``../shared/data/pt-en-dictionary/pt-en.wiktionary.dict.txt.gz``).
"""

from __future__ import annotations

import gzip
import logging
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

import regex

from ..errors import InputError
from .content_words import WORD_CHARACTER, function_words

log = logging.getLogger("paranon.align")

BUILTIN_FILE = Path(__file__).parent / "data" / "priors_pt_en.tsv.gz"
LINKS_FILE = Path(__file__).parent / "data" / "links_pt_en.tsv.gz"
BUILTIN_LANGUAGES = ("pt", "en")
LICENCE_LINE = ("# licence: CC BY-SA 3.0 Unported (or GFDL). English Wiktionary contributors; extraction by "
                "Matthias Buchmeier; open-dsl-dict (github.com/open-dsl-dict/wiktionary-dict, 74c2c11). "
                "Filtered to single-word pairs by paranon.align.priors.")
DEFAULT_ALPHA = 1.0
MIN_LINK_COUNT = 2  # a link seen once in the general text is as likely noise as evidence
SINGLE_WORD = regex.compile(r"^\p{L}+(?:-\p{L}+)*$")  # one word: letters, inner hyphens (guarda-chuva)
ENGLISH_INFINITIVE = regex.compile(r"^to\s+")  # Wiktionary glosses verbs as "to sharpen"


def open_text(path: str | Path):
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def read_dictionary(path: str | Path) -> Iterator[tuple[str, str]]:
    """``(source, target)`` per line of a ``source<TAB>target`` file; ``#`` lines and blank lines are skipped.
    A line without exactly one tab is an ``InputError`` naming the file and line."""
    try:
        with open_text(path) as fh:
            for no, line in enumerate(fh, 1):
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                parts = line.split("\t")
                if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
                    raise InputError(f"{path}:{no}: a dictionary line is 'source<TAB>target', got {line[:60]!r}")
                yield parts[0].strip(), parts[1].strip()
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except (OSError, EOFError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise InputError(f"{path}: cannot read the dictionary ({exc})") from None


def word_pair(src: str, tgt: str, src_lang: str = "pt", tgt_lang: str = "en") -> tuple[str, str] | None:
    """The lower-cased single-word pair a dictionary entry gives, or None (several words, a function word,
    digits or signs). An English target loses a leading ``to`` (``to sharpen`` -> ``sharpen``)."""
    s, t = src.lower(), tgt.lower()
    if tgt_lang.lower().startswith("en"):
        t = ENGLISH_INFINITIVE.sub("", t)
    if src_lang.lower().startswith("en"):
        s = ENGLISH_INFINITIVE.sub("", s)
    if not (SINGLE_WORD.match(s) and SINGLE_WORD.match(t)):
        return None
    if s in function_words(src_lang) or t in function_words(tgt_lang):
        return None
    return s, t


class PriorFiles(NamedTuple):
    """What ``align.priors`` names: a dictionary, the shipped link counts (``builtin`` only), and whether their
    columns are (target, source)."""

    dictionary: Path
    links: Path | None
    swap: bool


def resolve(setting: str | None, src_lang: str, tgt_lang: str) -> PriorFiles | None:
    """The files for ``align.priors``: ``builtin`` (dictionary and link counts) and ``wiktionary``
    (dictionary only) are Portuguese-English and serve both directions; ``null`` gives None. A path must
    exist."""
    if setting is None or setting in ("null", "none", ""):
        return None
    pair = (src_lang.lower().split("-")[0], tgt_lang.lower().split("-")[0])
    if setting in ("builtin", "wiktionary"):
        if not BUILTIN_FILE.is_file():  # a package built without its data: align as without priors
            log.warning("align.priors %s: %s is missing; aligning without dictionary priors", setting, BUILTIN_FILE)
            return None
        if pair not in (BUILTIN_LANGUAGES, BUILTIN_LANGUAGES[::-1]):
            return None  # no shipped dictionary for this language pair: the aligner runs without priors
        links = LINKS_FILE if setting == "builtin" and LINKS_FILE.is_file() else None
        return PriorFiles(BUILTIN_FILE, links, pair != BUILTIN_LANGUAGES)
    path = Path(setting)
    if not path.is_file():
        raise ValueError(f"align.priors: {setting}: no such file (builtin, wiktionary, null or a path to a "
                         "source<TAB>target dictionary)")
    return PriorFiles(path, None, False)


def prior_lines(path: str | Path, normalize: Callable[[str], str], alpha: float = DEFAULT_ALPHA,
                swap: bool = False, src_lang: str = "pt", tgt_lang: str = "en") -> list[str]:
    """eflomal ``LEX`` prior lines for the dictionary at ``path``: each single-word pair, normalized as the
    corpus is, with weight ``alpha`` (pairs that become the same after normalization add up, so a prefix
    shared by many entries' forms weighs more). Sorted, so the same dictionary always gives the same file."""
    weight: dict[tuple[str, str], float] = defaultdict(float)
    for a, b in read_dictionary(path):
        if swap:
            a, b = b, a
        got = word_pair(a, b, src_lang, tgt_lang)
        if got is None:
            continue
        weight[(normalize(got[0]), normalize(got[1]))] += alpha
    return [f"LEX\t{s}\t{t}\t{w:g}\n" for (s, t), w in sorted(weight.items())]


def link_lines(path: str | Path, normalize: Callable[[str], str], alpha: float = DEFAULT_ALPHA,
               swap: bool = False, min_count: int = MIN_LINK_COUNT) -> list[str]:
    """eflomal ``LEX`` prior lines for a ``source<TAB>target<TAB>count`` file of counted links: weight
    ``count * alpha`` per pair seen at least ``min_count`` times, normalized as the corpus is (pairs that
    meet add up). Sorted. A line that is not two words and a positive count is an ``InputError``."""
    weight: dict[tuple[str, str], float] = defaultdict(float)
    with open_text(path) as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or not parts[2].isdigit() or not parts[0] or not parts[1]:
                raise InputError(f"{path}:{no}: a link-count line is 'source<TAB>target<TAB>count', got {line[:60]!r}")
            if int(parts[2]) < min_count:
                continue
            a, b = (parts[1], parts[0]) if swap else (parts[0], parts[1])
            weight[(normalize(a), normalize(b))] += int(parts[2]) * alpha
    return [f"LEX\t{s}\t{t}\t{w:g}\n" for (s, t), w in sorted(weight.items())]


def identity_lines(shared: Iterable[str], normalize: Callable[[str], str], alpha: float = DEFAULT_ALPHA,
                   src_lang: str = "pt", tgt_lang: str = "en") -> list[str]:
    """eflomal ``LEX`` priors linking each word found on both sides of the corpus to itself: names, numbers
    and codes stay the same in a translation (``solbes``, ``2000``, ``12h30``). A word needs a letter or
    digit, two characters, and to be a function word on neither side (``a`` is an article in both
    languages, never its own translation)."""
    fw_s, fw_t = function_words(src_lang), function_words(tgt_lang)
    keep = sorted({normalize(w) for w in shared
                   if len(w) >= 2 and WORD_CHARACTER.search(w) and w not in fw_s and w not in fw_t})
    return [f"LEX\t{w}\t{w}\t{alpha:g}\n" for w in keep]


def build_shipped(source: str | Path, out: str | Path) -> int:
    """Write the shipped dictionary: the licence line, then the single-word pairs of ``source`` (a
    Wiktionary ``pt<TAB>en`` file), lower-cased, de-duplicated and sorted, gzip-compressed without a
    timestamp. Returns the number of pairs."""
    pairs = sorted({p for a, b in read_dictionary(source) if (p := word_pair(a, b)) is not None})
    tmp = Path(f"{out}.part")
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) as gz:
        gz.write((LICENCE_LINE + "\n").encode("utf-8"))
        gz.write("".join(f"{a}\t{b}\n" for a, b in pairs).encode("utf-8"))
    tmp.replace(out)
    return len(pairs)


def main(argv: Iterable[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 3 or args[0] != "build":
        print("usage: python -m paranon.align.priors build WIKTIONARY_PT_EN.tsv[.gz] OUT.tsv.gz", file=sys.stderr)
        return 2
    n = build_shipped(args[1], args[2])
    print(f"{args[2]}: {n} pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
