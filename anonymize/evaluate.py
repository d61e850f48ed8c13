"""``paranon eval ner``: how well the anonymizer finds the gold entities, and how much it leaves visible.

Gold comes as CoNLL (``TOKEN TAG`` per line, IOB2 or IO, blank line between sentences; a
folder of ``.conll`` files is one document per file), as the JSONL gold format, or as a HAREM
golden collection (``corpora/harem.py``). For CoNLL the tokens of a sentence are joined by
single spaces, the anonymizer runs on that text a document at a time (so propagation works
as in a real run) and its character spans are mapped back to tokens.

Scores, each ``{"tp", "fp", "fn", "precision", "recall", "f1"}``:

* ``exact``: a span counts only with the same boundaries (CoNLL scheme);
* ``partial``: an overlapping span with other boundaries counts half (MUC/SemEval scheme);
* ``token``: over tokens (a token is predicted when a mention covers any of it);
* ``leak_rate``: share of gold entity tokens of a category that no mention covers, i.e. left
  visible in the anonymized text (whatever category the covering mention has);
* ``over_masking``: share of masked tokens (covered by a mention of any masked category) that lie
  inside no gold ACNE: on a set that marks no dates, every masked date counts (see ``over_masked_as``);
  ``over_masking_scored`` counts only the masks of the categories the set scores (with no public
  bodies and no ignored tokens in the gold, it is 1 - token precision);
* ``leak_why``: each leaked gold token by what paranon made of it: inside a span it keeps public
  (``public_id``: a law/decree number or a citation of law; ``place``: a place name;
  ``allow``: an allow-list entry) or ``nothing`` (a miss);
* ``over_masked_as``: for gold with annotations that are not scored (HAREM's ``LOCAL``, ``PESSOA/CARGO``;
  LeNER-Br's ``TEMPO``, ``LEGISLACAO`` ...), the over-masked tokens by the label the gold gives them, or
  ``unannotated``;
* ``public_masked``: gold entities marked ``"public": true`` (public bodies: not ACNEs, so not in
  recall or leaks) and how many of them were masked. Masking one is over-masking only when the
  policy says it is public (its text is on the configured allow lists); otherwise it counts as neither.

Only gold types named in the map count; predictions whose category is not a map target
are left out of precision (they still hide text, so they count against leaks). Tokens that
the gold marks as not evaluated (HAREM's ``OMITIDO``) count nowhere.

``by_doc`` (``--by-doc``): per document, its gold entity tokens, leaked tokens by category,
masked and over-masked tokens, worst first; for a set that is not a test set also the leaked
strings. Test sets are looked at only as figures: no entity string is ever put in their results.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError

DEFAULT_MAP = {"PESSOA": "PERSON", "ORGANIZACAO": "ORGANIZATION"}
# paranon categories kept visible; asked of the engine only to tell why a gold token stayed visible
SHOWN_CATEGORIES = ("PUBLIC_ID", "LEGAL_REFERENCE")
LEAK_REASONS = ("public_id", "place", "allow", "nothing")
# a CoNLL tag: O, IOB2 (B-PESSOA, I-PESSOA) or IO (PESSOA: a run of the same tag is one entity)
CONLL_TAG = re.compile(r"^(?:O|[BI]-\w+|[^\W\d]\w*)$")
MAX_NGRAM = 8  # longest allow-list entry or place name looked for around a leaked token, in tokens


@dataclass
class Sentence:
    """One gold sentence: its text, token spans and gold entities (token index spans, end exclusive).

    ``other``: gold annotations that are not scored (HAREM's LOCAL, ORGANIZACAO/SUB ...);
    ``public``: gold entities marked public, (start, end, category, visible by the policy);
    ``ignore``: tokens the gold leaves out of evaluation; ``shown``: token -> why paranon keeps it public.
    """

    text: str
    tokens: list[tuple[int, int]]
    gold: list[tuple[int, int, str]]
    pred: list[tuple[int, int, str]] = field(default_factory=list)
    covered: set[int] = field(default_factory=set)
    other: list[tuple[int, int, str]] = field(default_factory=list)
    public: list[tuple[int, int, str, bool]] = field(default_factory=list)
    ignore: set[int] = field(default_factory=set)
    shown: dict[int, str] = field(default_factory=dict)


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
    """A CoNLL sentence; a tag without ``B-``/``I-`` (the IO scheme: ``PESSOA``) is read as ``I-`` (a run of
    the same tag is one entity)."""
    tags = [t if t == "O" or t[:2] in ("B-", "I-") else f"I-{t}" for t in tags]
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
                if not CONLL_TAG.match(tag):
                    raise InputError(f"{f}:{no}: {tag!r} is not an IOB2 or IO tag")
                words.append(parts[0])
                tags.append(tag)
        if words:
            sents.append(_sentence(words, tags))
        yield f.stem, sents


def _jsonl_documents(path: Path) -> Iterator[tuple[str, list[Sentence]]]:
    from ..corpora.formats.gold import read_gold
    from ..text import tokenize

    by_doc: dict[str, list[Sentence]] = defaultdict(list)
    for g in read_gold(path):
        text = g.pair.src
        tokens = tokenize(text)
        s = Sentence(text, tokens, [])
        for e in g.src_entities:
            span = _spans_to_tokens(tokens, e["start"], e["end"])
            if not span:
                continue
            if e.get("public"):
                s.public.append((*span, e["category"], False))
            else:
                s.gold.append((*span, e["category"]))
        by_doc[g.pair.doc].append(s)
    yield from by_doc.items()


def _harem_documents(path: Path, names_only: bool = False) -> Iterator[tuple[str, list[Sentence]]]:
    from ..corpora.harem import read_harem
    from ..text import tokenize

    for d in read_harem(path, names_only):
        sents = []
        for seg in d.segments:
            tokens = tokenize(seg.text)
            s = Sentence(seg.text, tokens, [])
            for e in seg.entities:
                span = _spans_to_tokens(tokens, e.start, e.end)
                if span:
                    (s.gold if e.scored else s.other).append((*span, e.category))
            for a, b in seg.ignore:
                span = _spans_to_tokens(tokens, a, b)
                if span:
                    s.ignore.update(range(*span))
            sents.append(s)
        yield d.doc, sents


def _metric(tp: float, fp: float, fn: float) -> dict[str, Any]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


def _spans_to_tokens(tokens: list[tuple[int, int]], start: int, end: int) -> tuple[int, int] | None:
    ks = [k for k, (s, e) in enumerate(tokens) if s < end and start < e]
    return (ks[0], ks[-1] + 1) if ks else None


def _ngram_hits(s: Sentence, k: int, words: set[str], fold) -> bool:
    """Whether a run of tokens holding token ``k`` reads, folded, as one of ``words``."""
    n = len(s.tokens)
    for a in range(max(0, k - MAX_NGRAM + 1), k + 1):
        for b in range(k + 1, min(n, a + MAX_NGRAM) + 1):
            if " ".join(fold(s.text[s.tokens[a][0]:s.tokens[b - 1][1]]).split()) in words:
                return True
    return False


def _why_visible(an, s: Sentence, k: int) -> str:
    """What paranon made of a gold token it left visible: one of LEAK_REASONS."""
    from ..text import fold

    if k in s.shown:
        return s.shown[k]
    if _ngram_hits(s, k, an.lex.places, fold):
        return "place"
    if an.allow and _ngram_hits(s, k, an.allow, fold):
        return "allow"
    return "nothing"


def predict(docs: list[tuple[str, list[Sentence]]], cfg: dict[str, Any]) -> None:
    """Run the anonymizer a document at a time; fill each sentence's masks, and for every gold token left
    visible, why (``shown``): the engine is asked for its public spans too, which it otherwise drops."""
    import copy

    from ..text import phrase_key
    from .engine import Anonymizer

    cfg = copy.deepcopy(cfg)
    masked = set(cfg["anonymize"]["categories"])
    cfg["anonymize"]["categories"] = sorted(masked | set(SHOWN_CATEGORIES))
    an = Anonymizer(cfg)
    for _, sents in docs:
        found = an.recognize_document([s.text for s in sents])
        for s, ms in zip(sents, found, strict=True):
            public_tokens: dict[int, str] = {}
            for m in ms:
                span = _spans_to_tokens(s.tokens, m.start, m.end)
                if span is None:
                    continue
                if m.category in masked:
                    s.pred.append((span[0], span[1], m.category))
                    s.covered.update(range(*span))
                else:
                    for k in range(*span):
                        public_tokens.setdefault(k, "public_id")
            s.public = [(a, b, c, phrase_key(s.text[s.tokens[a][0]:s.tokens[b - 1][1]]) in an.allow)
                        for a, b, c, _ in s.public]
            s.shown = {}
            for a, b, _ in s.gold:
                for k in range(a, b):
                    if k not in s.covered and k not in s.ignore:
                        s.shown[k] = public_tokens.get(k) or _why_visible(an, s, k)


def _counts(n: int, zero: float = 0) -> defaultdict:
    return defaultdict(lambda: [zero] * n)


@dataclass
class _Tally:
    """The running counts of ``score`` over a set's sentences; ``figures`` turns them into the result."""

    targets: set[str]
    ex: defaultdict = field(default_factory=lambda: _counts(3))  # key -> tp, fp, fn; "untyped", "typed", category
    pa: defaultdict = field(default_factory=lambda: _counts(3, 0.0))
    tok: defaultdict = field(default_factory=lambda: _counts(3))
    leak: defaultdict = field(default_factory=lambda: _counts(2))
    why: defaultdict = field(default_factory=lambda: defaultdict(Counter))
    over: Counter = field(default_factory=Counter)
    public: Counter = field(default_factory=Counter)
    over_as: Counter = field(default_factory=Counter)  # over-masked tokens by the gold's unscored label (LOCAL ...)

    def exact(self, gold: list, pred: list) -> None:
        g_un, p_un = {(a, b) for a, b, _ in gold}, {(a, b) for a, b, _ in pred}
        g_ty, p_ty = set(gold), set(pred)
        pairs = [("untyped", g_un, p_un), ("typed", g_ty, p_ty)]
        pairs += [(c, {x for x in g_ty if x[2] == c}, {x for x in p_ty if x[2] == c}) for c in self.targets]
        for key, g, p in pairs:
            self.ex[key][0] += len(g & p)
            self.ex[key][1] += len(p - g)
            self.ex[key][2] += len(g - p)

    def partial(self, gold: list, pred: list) -> None:
        """Each gold matched once; exact = 1, overlap = 0.5."""
        for key, typed in (("untyped", False), ("typed", True)):
            _partial(gold, pred, typed, self.pa[key])
        for c in self.targets:
            _partial([g for g in gold if g[2] == c], [p for p in pred if p[2] == c], True, self.pa[c])

    def tokens(self, g_tok: dict[int, str], p_tok: dict[int, str]) -> None:
        for k in set(g_tok) | set(p_tok):
            self.tok["untyped"][0 if k in g_tok and k in p_tok else 1 if k in p_tok else 2] += 1
            for c in self.targets:
                in_g, in_p = g_tok.get(k) == c, p_tok.get(k) == c
                self.tok[c][0] += in_g and in_p
                self.tok[c][1] += in_p and not in_g
                self.tok[c][2] += in_g and not in_p

    def leaks(self, s: Sentence, g_tok: dict[int, str], d: dict[str, Any]) -> None:
        for k, c in g_tok.items():
            self.leak[c][1] += 1
            d["gold_tokens"] += 1
            if k not in s.covered:
                self.leak[c][0] += 1
                d["leaked"][c] += 1
                self.why[c][s.shown.get(k, "nothing")] += 1

    def over_masking(self, s: Sentence, mapping: dict[str, str], g_tok: dict, p_tok: dict, d: dict) -> None:
        """Masked tokens inside no gold ACNE (a public body counts only if the policy shows it)."""
        not_over = set(g_tok) | {k for a, b, _, vis in s.public if not vis for k in range(a, b)}
        scored_masks = set(p_tok)
        all_masks = s.covered - s.ignore
        self.over["masked"] += len(all_masks)
        self.over["outside"] += len(all_masks - not_over)
        self.over["masked_scored"] += len(scored_masks)
        self.over["outside_scored"] += len(scored_masks - not_over)
        unscored = s.other + [x for x in s.gold if x[2] not in mapping]  # HAREM's LOCAL, LeNER-Br's TEMPO ...
        if unscored and all_masks - not_over:
            labels = {k: lab for a, b, lab in unscored for k in range(a, b)}
            self.over_as.update(labels.get(k, "unannotated") for k in all_masks - not_over)
        d["masked_tokens"] += len(all_masks)
        d["over_masked"] += len(all_masks - not_over)
        for a, b, _, vis in s.public:
            self.public["entities"] += 1
            self.public["masked"] += bool(s.covered.intersection(range(a, b)))
            self.public["visible_by_policy"] += vis

    def figures(self, by_doc: list[dict[str, Any]]) -> dict[str, Any]:
        cats = sorted(self.targets)
        ex, pa, tok, leak = self.ex, self.pa, self.tok, self.leak
        out = {
            "exact": {"untyped": _metric(*ex["untyped"]), "typed": _metric(*ex["typed"]),
                      "per_category": {c: _metric(*ex[c]) for c in cats}},
            "partial": {"untyped": _metric(*pa["untyped"]), "typed": _metric(*pa["typed"]),
                        "per_category": {c: _metric(*pa[c]) for c in cats}},
            "token": {"untyped": _metric(*tok["untyped"]), "per_category": {c: _metric(*tok[c]) for c in cats}},
            "leak_rate": {c: round(leak[c][0] / leak[c][1], 4) if leak[c][1] else 0.0 for c in cats},
            "leaked_tokens": {c: {"leaked": leak[c][0], "gold": leak[c][1]} for c in cats},
            "leak_why": {c: {r: self.why[c][r] for r in LEAK_REASONS} for c in cats},
            "over_masking": _rate(self.over["outside"], self.over["masked"]),
            "over_masking_scored": _rate(self.over["outside_scored"], self.over["masked_scored"]),
            "by_doc": by_doc,
        }
        if self.over_as:
            out["over_masked_as"] = dict(self.over_as.most_common())
        if self.public["entities"]:
            out["public_masked"] = dict(self.public)
        return out


def _score_sentence(t: _Tally, s: Sentence, mapping: dict[str, str], d: dict[str, Any],
                    leaked_strings: Counter | None) -> None:
    gold = [(a, b, mapping[c]) for a, b, c in s.gold if c in mapping]
    pred = [(a, b, c) for a, b, c in s.pred if c in t.targets]
    if s.ignore:
        pred = [p for p in pred if not s.ignore.intersection(range(p[0], p[1]))]
    t.exact(gold, pred)
    t.partial(gold, pred)
    g_tok = {k: c for a, b, c in gold for k in range(a, b)}
    p_tok: dict[int, str] = {}
    for a, b, c in pred:
        for k in range(a, b):
            p_tok.setdefault(k, c)
    t.tokens(g_tok, p_tok)
    t.leaks(s, g_tok, d)
    if leaked_strings is not None:
        for a, b, c in gold:
            if any(k not in s.covered for k in range(a, b)):
                leaked_strings[f"{c}: {s.text[s.tokens[a][0]:s.tokens[b - 1][1]]}"] += 1
    t.over_masking(s, mapping, g_tok, p_tok, d)


def score(docs: list[tuple[str, list[Sentence]]], mapping: dict[str, str], strings: bool = False) -> dict[str, Any]:
    """Every figure of a set; ``strings``: the per-document rows may list leaked strings (never for test sets)."""
    t = _Tally(set(mapping.values()))
    by_doc = []
    for doc, sents in docs:
        d = {"doc": doc, "sentences": len(sents), "gold_tokens": 0, "leaked": Counter(), "masked_tokens": 0,
             "over_masked": 0}
        leaked_strings: Counter | None = Counter() if strings else None
        for s in sents:
            _score_sentence(t, s, mapping, d, leaked_strings)
        if leaked_strings is not None:
            d["leaked_strings"] = [f"{k} (x{v})" if v > 1 else k for k, v in leaked_strings.most_common(20)]
        d["leaked"] = dict(sorted(d["leaked"].items()))
        by_doc.append(d)
    by_doc.sort(key=lambda d: (-sum(d["leaked"].values()), -d["over_masked"], d["doc"]))
    return t.figures(by_doc)


def _rate(part: int, whole: int) -> dict[str, Any]:
    return {"rate": round(part / whole, 4) if whole else 0.0, "tokens": part, "of": whole}


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


def _format_of(path: Path, fmt: str | None) -> str:
    from ..corpora.harem import is_harem

    if fmt is None:
        fmt = "jsonl" if path.suffix == ".jsonl" else "harem" if is_harem(path) else "conll"
    if fmt not in ("conll", "jsonl", "harem", "harem-names"):
        raise InputError(f"--format: {fmt!r} is not conll, jsonl, harem or harem-names")
    return fmt


def load_documents(gold: str | Path, fmt: str | None = None, limit: int | None = None
                   ) -> tuple[list[tuple[str, list[Sentence]]], str]:
    """(documents, format) of a gold set; ``limit``: whole documents in file order until that many sentences."""
    path = Path(gold)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    fmt = _format_of(path, fmt)
    reader = {"conll": _conll_documents, "jsonl": _jsonl_documents, "harem": _harem_documents,
              "harem-names": lambda p: _harem_documents(p, names_only=True)}[fmt]
    docs: list[tuple[str, list[Sentence]]] = []
    n = 0
    for doc in reader(path):
        if limit is not None and n >= limit:
            break
        docs.append(doc)
        n += len(doc[1])
    return docs, fmt


def evaluate_ner(gold: str | Path, fmt: str | None, mapping: dict[str, str] | None, cfg: dict[str, Any],
                 limit: int | None = None, strings: bool = False) -> dict[str, Any]:
    """Figures of one gold set. ``mapping`` None: the set's own (PESSOA/ORGANIZACAO for CoNLL, the gold's
    categories for JSONL and HAREM). ``strings``: leaked strings in the per-document rows (tuning sets)."""
    docs, fmt = load_documents(gold, fmt, limit)
    if fmt != "conll" and (mapping is None or mapping == DEFAULT_MAP):
        mapping = {c: c for _, sents in docs for s in sents for _, _, c in s.gold}
    predict(docs, cfg)
    out = score(docs, mapping or dict(DEFAULT_MAP), strings=strings)
    out["format"] = fmt
    out["documents"] = len(docs)
    out["sentences"] = sum(len(s) for _, s in docs)
    if limit is not None:
        out["limit"] = limit
    return out
