"""Build the ``general-tune`` set (tuning) of general Portuguese text: Paramopama and the miniHAREM collection as CoNLL.

The text stays in ``../shared`` (never in git): this script writes a folder of ``.conll`` files (git-ignored)
that ``paranon eval ner`` reads as one document per file. Both sources are UTF-8 ``TOKEN<TAB>TAG`` with IO tags
(no ``B-``/``I-``) and no document boundaries; the sentences are cut into documents of ``DOC_SENTENCES``.

What is left out, so that the set stays apart from the HAREM test collections:

* a miniHAREM sentence that is also in the First HAREM or Second HAREM CoNLL files (its normalised words,
  hashed), or that shares an 8-word sequence with them (not counting sequences of Paramopama's own text,
  which ``corpus_paramopama+second_harem.txt`` holds as well), and the sentences between two such sentences
  and ``PAD`` around them (around a sentence of ``SHORT`` words or more: miniHAREM and the First HAREM
  golden collection share a few documents). The test text is read only to hash it; nothing of it is printed
  or written.

What the gold marks, in paranon's policy (persons' names only; a title stays visible):

* ``PESSOA``: HAREM's annotation includes the title or role before a name (``Professora X``, ``tio X``) and
  roles alone (``o Presidente``); the leading words that are paranon's titles or +HUM nouns
  (``person.titles``, ``person.hum_nouns``) or are written in lower case are made ``O``, and a run with no
  capitalized word left is made ``O`` (``corpora/person_policy.py``, the rule the HAREM test collections are
  also read with: ``corpora/harem.py``, ``names_only``).

    python corpora/gold/general/build.py build [OUTDIR]   # the set (default: tuning_general/ here)
    python corpora/gold/general/build.py stats             # what is dropped and kept (counts only)
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from paranon.corpora.person_policy import name_start, roles_of

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
DATA = ROOT.parent / "shared" / "data" / "pt-ner-harem-paramopama" / "conll"
DEFAULT_OUT = HERE / "tuning_general"
SOURCES = {"paramopama": "corpus_Paramopama.txt", "miniharem": "corpus_miniHAREM.txt"}
TEST_FILES = ("corpus_First_HAREM.txt", "corpus_paramopama+second_harem.txt")
CHECKED = ("miniharem",)     # Paramopama (Wikipedia) shares no 8-word sequence with the HAREM collections
DOC_SENTENCES = 40
NGRAM = 8
GAP, PAD = 5, 3
SHORT = 5        # words: a shorter shared sentence is left out alone
WORD = re.compile(r"\w+")

Sentence = list[tuple[str, str]]


def read_conll(path: Path) -> list[Sentence]:
    out: list[Sentence] = []
    cur: Sentence = []
    with open(path, encoding="utf-8") as fh:
        for no, raw in enumerate(fh, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                if cur:
                    out.append(cur)
                    cur = []
                continue
            parts = line.split("\t")
            if len(parts) != 2:
                sys.exit(f"{path}:{no}: expected TOKEN<TAB>TAG")
            cur.append((parts[0], parts[1]))
    if cur:
        out.append(cur)
    return out


def _h(text: str) -> bytes:
    return hashlib.sha1(text.encode("utf-8")).digest()[:10]


def words(s: Sentence) -> list[str]:
    return WORD.findall(" ".join(w for w, _ in s).lower())


def sentence_key(s: Sentence) -> bytes:
    return _h(" ".join(words(s)))


def ngrams(ws: list[str]) -> set[bytes]:
    return {_h(" ".join(ws[i:i + NGRAM])) for i in range(len(ws) - NGRAM + 1)}


def test_fingerprints(data: Path, own: Iterable[Sentence]) -> tuple[set[bytes], set[bytes]]:
    """Hashes of the test files' sentences and 8-word sequences (without those of ``own`` text)."""
    keys: set[bytes] = set()
    grams: set[bytes] = set()
    for name in TEST_FILES:
        for s in read_conll(data / name):
            keys.add(sentence_key(s))
            grams |= ngrams(words(s))
    for s in own:
        grams -= ngrams(words(s))
    return keys, grams


def overlapping(sents: list[Sentence], keys: set[bytes], grams: set[bytes]) -> set[int]:
    """Indexes of the sentences to leave out: shared ones, the gaps between them and a margin around."""
    shared = [i for i, s in enumerate(sents) if words(s) and (sentence_key(s) in keys or ngrams(words(s)) & grams)]
    out = set(shared)  # a short sentence ("Sim.", "Obrigado.") is shared by chance: it goes, its neighbours stay
    hits = [i for i in shared if len(words(sents[i])) >= SHORT]
    for n, a in enumerate(hits):
        out.update(range(max(0, a - PAD), min(len(sents), a + PAD + 1)))
        if n + 1 < len(hits) and hits[n + 1] - a <= GAP:
            out.update(range(a, hits[n + 1]))
    return out


def person_policy(s: Sentence, roles: frozenset[str]) -> tuple[Sentence, int, int]:
    """The sentence with PESSOA runs cut to the name (see the module's docstring); how many runs were cut
    and how many dropped."""
    out = list(s)
    cut = dropped = 0
    i = 0
    while i < len(out):
        if out[i][1] != "PESSOA":
            i += 1
            continue
        j = i
        while j < len(out) and out[j][1] == "PESSOA":
            j += 1
        start = name_start([w for w, _ in out[i:j]], roles)
        k = j if start is None else i + start
        if start is None:
            dropped += 1
        elif k > i:
            cut += 1
        for m in range(i, k):
            out[m] = (out[m][0], "O")
        i = j
    return out, cut, dropped


def documents(data: Path) -> Iterator[tuple[str, list[Sentence], dict[str, int]]]:
    """(name, sentences, counts) per source, after the overlap filter and the person policy."""
    roles = roles_of()
    para = read_conll(data / SOURCES["paramopama"])
    fingerprints = test_fingerprints(data, para) if CHECKED else (set(), set())
    for name, file in SOURCES.items():
        sents = para if name == "paramopama" else read_conll(data / file)
        drop = overlapping(sents, *fingerprints) if name in CHECKED else set()
        kept = []
        counts = {"sentences": len(sents), "dropped_overlap": len(drop), "person_cut": 0, "person_dropped": 0}
        for i, s in enumerate(sents):
            if i in drop:
                continue
            s, cut, dropped = person_policy(s, roles)
            counts["person_cut"] += cut
            counts["person_dropped"] += dropped
            kept.append(s)
        counts["kept"] = len(kept)
        yield name, kept, counts


def build(out: Path, data: Path) -> dict[str, dict[str, int]]:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.conll"):
        old.unlink()
    stats = {}
    for name, sents, counts in documents(data):
        for n in range(0, len(sents), DOC_SENTENCES):
            part = out / f"{name}-{n // DOC_SENTENCES + 1:04d}.conll"
            tmp = part.with_suffix(".part")
            tmp.write_text("\n\n".join("\n".join(f"{w}\t{t}" for w, t in s) for s in sents[n:n + DOC_SENTENCES])
                           + "\n", encoding="utf-8")
            tmp.replace(part)
        stats[name] = counts
    return stats


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("command", choices=["build", "stats"])
    p.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    p.add_argument("--data", type=Path, default=DATA, help="the folder of the CoNLL files (default: %(default)s)")
    args = p.parse_args(argv)
    missing = [f for f in [*SOURCES.values(), *TEST_FILES] if not (args.data / f).exists()]
    if missing:
        print(f"{args.data / missing[0]}: not found", file=sys.stderr)
        return 2
    if args.command == "build":
        stats = build(args.out, args.data)
    else:
        stats = {name: counts for name, _, counts in documents(args.data)}
    for name, counts in stats.items():
        print(name, " ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
