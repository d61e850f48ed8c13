"""``paranon eval ner``: how well the anonymizer finds the gold entities, and how much it leaves visible.

Gold comes as CoNLL (``TOKEN TAG`` per line, IOB2, blank line between sentences; a
folder of ``.conll`` files is one document per file) or as the JSONL gold format.
For CoNLL the tokens of a sentence are joined by single spaces, the anonymizer runs
on that text a document at a time (so propagation works as in a real run) and its
character spans are mapped back to tokens.

Scores, each ``{"tp", "fp", "fn", "precision", "recall", "f1"}``:

* ``exact``: a span counts only with the same boundaries (CoNLL scheme);
* ``partial``: an overlapping span with other boundaries counts half (MUC/SemEval scheme);
* ``token``: over tokens (a token is predicted when a mention covers any of it);
* ``leak_rate``: share of gold entity tokens of a category that no mention covers, i.e. left
  visible in the anonymized text (whatever category the covering mention has).

Only gold types named in the map count; predictions whose category is not a map target
are left out of precision (they still hide text, so they count against leaks).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..corpora.formats.common import InputError

DEFAULT_MAP = {"PESSOA": "PERSON", "ORGANIZACAO": "ORGANIZATION"}


@dataclass
class Sentence:
    """One gold sentence: its text, token spans and gold entities (token index spans, end exclusive)."""

    text: str
    tokens: list[tuple[int, int]]
    gold: list[tuple[int, int, str]]
    pred: list[tuple[int, int, str]] = field(default_factory=list)
    covered: set[int] = field(default_factory=set)


def parse_map(spec: str | None) -> dict[str, str]:
    if not spec:
        return dict(DEFAULT_MAP)
    out = {}
    for item in spec.split(","):
        if "=" not in item:
            raise InputError(f"--map: {item!r} is not GOLD=CATEGORY")
        a, b = item.split("=", 1)
        out[a.strip()] = b.strip()
    return out


def _sentence(words: list[str], tags: list[str]) -> Sentence:
    tokens, pos = [], 0
    for w in words:
        tokens.append((pos, pos + len(w)))
        pos += len(w) + 1
    gold, start, typ = [], None, None
    for k, t in enumerate([*tags, "O"]):
        if start is not None and (t == "O" or t.startswith("B-") or t[2:] != typ):
            gold.append((start, k, typ))
            start = None
        if t.startswith("B-") or (t.startswith("I-") and start is None):
            start, typ = k, t[2:]
    return Sentence(" ".join(words), tokens, gold)


def _conll_documents(path: Path) -> Iterator[tuple[str, list[Sentence]]]:
    files = sorted(path.glob("*.conll")) if path.is_dir() else [path]
    if not files:
        raise InputError(f"{path}: no .conll files")
    for f in files:
        sents: list[Sentence] = []
        words: list[str] = []
        tags: list[str] = []
        with open(f, encoding="utf-8") as fh:
            for no, raw in enumerate(fh, 1):
                line = raw.rstrip("\n")
                if not line.strip():
                    if words:
                        sents.append(_sentence(words, tags))
                        words, tags = [], []
                    continue
                parts = line.split()
                if len(parts) < 2:
                    raise InputError(f"{f}:{no}: expected 'TOKEN TAG', got {line!r}")
                tag = parts[-1]
                if tag != "O" and tag[:2] not in ("B-", "I-"):
                    raise InputError(f"{f}:{no}: {tag!r} is not an IOB2 tag")
                words.append(parts[0])
                tags.append(tag)
        if words:
            sents.append(_sentence(words, tags))
        yield f.stem, sents


def _jsonl_documents(path: Path) -> Iterator[tuple[str, list[Sentence]]]:
    from ..align.transfer import tokenize
    from ..corpora.formats.gold import read_gold

    by_doc: dict[str, list[Sentence]] = defaultdict(list)
    for g in read_gold(path):
        text = g.pair.src
        tokens = tokenize(text)
        gold = []
        for e in g.src_entities:
            span = _spans_to_tokens(tokens, e["start"], e["end"])
            if span:
                gold.append((*span, e["category"]))
        by_doc[g.pair.doc].append(Sentence(text, tokens, gold))
    yield from by_doc.items()


def _metric(tp: float, fp: float, fn: float) -> dict[str, Any]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def _spans_to_tokens(tokens: list[tuple[int, int]], start: int, end: int) -> tuple[int, int] | None:
    ks = [k for k, (s, e) in enumerate(tokens) if s < end and start < e]
    return (ks[0], ks[-1] + 1) if ks else None


def predict(docs: list[tuple[str, list[Sentence]]], cfg: dict[str, Any]) -> None:
    from .engine import Anonymizer

    an = Anonymizer(cfg)
    for _, sents in docs:
        found = an.recognize_document([s.text for s in sents])
        for s, ms in zip(sents, found, strict=True):
            for m in ms:
                span = _spans_to_tokens(s.tokens, m.start, m.end)
                if span is None:
                    continue
                s.pred.append((span[0], span[1], m.category))
                s.covered.update(range(*span))


def score(docs: list[tuple[str, list[Sentence]]], mapping: dict[str, str]) -> dict[str, Any]:
    targets = set(mapping.values())
    ex = defaultdict(lambda: [0, 0, 0])  # key -> tp, fp, fn ; keys: "untyped", "typed", category
    pa = defaultdict(lambda: [0.0, 0.0, 0.0])
    tok = defaultdict(lambda: [0, 0, 0])
    leak = defaultdict(lambda: [0, 0])
    for _, sents in docs:
        for s in sents:
            gold = [(a, b, mapping[c]) for a, b, c in s.gold if c in mapping]
            pred = [(a, b, c) for a, b, c in s.pred if c in targets]
            # exact
            g_un, p_un = {(a, b) for a, b, _ in gold}, {(a, b) for a, b, _ in pred}
            ex["untyped"][0] += len(g_un & p_un)
            ex["untyped"][1] += len(p_un - g_un)
            ex["untyped"][2] += len(g_un - p_un)
            g_ty, p_ty = set(gold), set(pred)
            ex["typed"][0] += len(g_ty & p_ty)
            ex["typed"][1] += len(p_ty - g_ty)
            ex["typed"][2] += len(g_ty - p_ty)
            for c in targets:
                gc, pc = {x for x in g_ty if x[2] == c}, {x for x in p_ty if x[2] == c}
                ex[c][0] += len(gc & pc)
                ex[c][1] += len(pc - gc)
                ex[c][2] += len(gc - pc)
            # partial: each gold matched once; exact = 1, overlap = 0.5
            for key, typed in (("untyped", False), ("typed", True)):
                _partial(gold, pred, typed, pa[key])
            for c in targets:
                _partial([g for g in gold if g[2] == c], [p for p in pred if p[2] == c], True, pa[c])
            # tokens
            g_tok = {k: c for a, b, c in gold for k in range(a, b)}
            p_tok: dict[int, str] = {}
            for a, b, c in pred:
                for k in range(a, b):
                    p_tok.setdefault(k, c)
            for k in set(g_tok) | set(p_tok):
                if k in g_tok and k in p_tok:
                    tok["untyped"][0] += 1
                elif k in p_tok:
                    tok["untyped"][1] += 1
                else:
                    tok["untyped"][2] += 1
                for c in targets:
                    in_g, in_p = g_tok.get(k) == c, p_tok.get(k) == c
                    tok[c][0] += in_g and in_p
                    tok[c][1] += in_p and not in_g
                    tok[c][2] += in_g and not in_p
            for k, c in g_tok.items():
                leak[c][1] += 1
                leak[c][0] += k not in s.covered
    cats = sorted(targets)
    return {
        "exact": {"untyped": _metric(*ex["untyped"]), "typed": _metric(*ex["typed"]),
                  "per_category": {c: _metric(*ex[c]) for c in cats}},
        "partial": {"untyped": _metric(*pa["untyped"]), "typed": _metric(*pa["typed"]),
                    "per_category": {c: _metric(*pa[c]) for c in cats}},
        "token": {"untyped": _metric(*tok["untyped"]), "per_category": {c: _metric(*tok[c]) for c in cats}},
        "leak_rate": {c: round(leak[c][0] / leak[c][1], 4) if leak[c][1] else 0.0 for c in cats},
    }


def _partial(gold: list, pred: list, typed: bool, acc: list[float]) -> None:
    used: set[int] = set()
    score_sum = 0.0
    for g in gold:
        best, best_k = 0.0, None
        for k, p in enumerate(pred):
            if k in used or (typed and p[2] != g[2]):
                continue
            if (p[0], p[1]) == (g[0], g[1]):
                best, best_k = 1.0, k
                break
            if p[0] < g[1] and g[0] < p[1] and best < 0.5:
                best, best_k = 0.5, k
        if best_k is not None:
            used.add(best_k)
        score_sum += best
    acc[0] += score_sum
    acc[1] += len(pred) - score_sum
    acc[2] += len(gold) - score_sum


def evaluate_ner(gold: str | Path, fmt: str | None, mapping: dict[str, str], cfg: dict[str, Any]) -> dict[str, Any]:
    path = Path(gold)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    fmt = fmt or ("jsonl" if path.suffix == ".jsonl" else "conll")
    if fmt not in ("conll", "jsonl"):
        raise InputError(f"--format: {fmt!r} is not conll or jsonl")
    docs = list(_conll_documents(path) if fmt == "conll" else _jsonl_documents(path))
    if fmt == "jsonl" and mapping == DEFAULT_MAP:
        mapping = {c: c for _, sents in docs for s in sents for _, _, c in s.gold}
    predict(docs, cfg)
    out = score(docs, mapping)
    out["documents"] = len(docs)
    out["sentences"] = sum(len(s) for _, s in docs)
    return out
