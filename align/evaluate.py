"""``paranon eval align`` and ``paranon eval transfer``: measure the aligner and the transfer step.

Alignment is scored against hand-made Pharaoh links (sure ``i-j``, possible ``i-j-p`` or
``i?j``); when the gold has only sure links every link is treated as sure, and the
result says so. Transfer is scored by running the whole pipeline on a gold file (the
JSONL gold format of ``docs/formats.md``) and checking what became of each gold mention:
recall per side and category (characters hidden), gold strings left visible (``leaks``),
number agreement (one gold entity, the same number on both sides), the coreference ARI of the
entity numbers (source side, and both sides together), over-masking per side (masked tokens
inside no gold ACNE), side mismatch (pairs whose two sides carry different entity-number sets;
``where_gold_agrees``: of those, the pairs whose gold has the same entities on both sides) and
the public bodies masked.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ..errors import InputError


def read_gold_links(path: str | Path) -> tuple[list[set[tuple[int, int]]], list[set[tuple[int, int]]], bool]:
    """(sure, possible ⊇ sure, has_possible) per line."""
    sure_all, poss_all, has_p = [], [], False
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            sure, poss = set(), set()
            for item in line.split():
                possible = item.endswith("-p") or "?" in item
                parts = item.replace("?", "-").removesuffix("-p").removesuffix("-s").split("-")
                try:
                    link = (int(parts[0]), int(parts[1]))
                except (ValueError, IndexError):
                    raise InputError(f"{path}:{no}: {item!r} is not a Pharaoh link i-j") from None
                poss.add(link)
                if possible:
                    has_p = True
                else:
                    sure.add(link)
            sure_all.append(sure)
            poss_all.append(poss)
    return sure_all, poss_all, has_p


def read_tokens(path: str | Path) -> list[list[str]]:
    with open(path, encoding="utf-8") as fh:
        return [line.rstrip("\n").split(" ") if line.strip() else [] for line in fh]


def score_links(pred: list[list[tuple[int, int]]], sure: list[set[tuple[int, int]]],
                possible: list[set[tuple[int, int]]]) -> dict[str, float]:
    """Precision against possible, recall against sure, AER (Och & Ney 2003)."""
    a = s = a_s = a_p = 0
    for links, s_set, p_set in zip(pred, sure, possible, strict=True):
        lset = set(links)
        a += len(lset)
        s += len(s_set)
        a_s += len(lset & s_set)
        a_p += len(lset & p_set)
    precision = a_p / a if a else 0.0
    recall = a_s / s if s else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    aer = 1 - (a_s + a_p) / (a + s) if a + s else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
            "aer": round(aer, 4), "links": a, "gold_sure": s}


def score_content_links(pred: list[list[tuple[int, int]]], sure: list[set[tuple[int, int]]],
                        possible: list[set[tuple[int, int]]], src: list[list[str]], tgt: list[list[str]],
                        src_lang: str, tgt_lang: str) -> dict[str, float]:
    """``score_links`` over the links with a content word at either end (see :mod:`.content_words`)."""
    from .content_words import content_links

    keep = [lambda links, s=s, t=t: content_links(set(links), s, t, src_lang, tgt_lang)
            for s, t in zip(src, tgt, strict=True)]
    return score_links([sorted(k(p)) for k, p in zip(keep, pred, strict=True)],
                       [k(x) for k, x in zip(keep, sure, strict=True)],
                       [k(x) for k, x in zip(keep, possible, strict=True)])


def evaluate_alignment(src: str, tgt: str, gold: str, cfg: dict[str, Any], train_src: str | None = None,
                       train_tgt: str | None = None) -> dict[str, Any]:
    from .aligners import make_aligner

    s_tok, t_tok = read_tokens(src), read_tokens(tgt)
    sure, possible, has_p = read_gold_links(gold)
    if not (len(s_tok) == len(t_tok) == len(sure)):
        raise InputError(f"{src}, {tgt}, {gold}: line counts differ ({len(s_tok)}, {len(t_tok)}, {len(sure)})")
    for k, (links, s, t) in enumerate(zip(possible, s_tok, t_tok, strict=True), 1):
        bad = [f"{i}-{j}" for i, j in links if i >= len(s) or j >= len(t)]
        if bad:
            raise InputError(f"{gold}:{k}: link {bad[0]} is outside the sentence ({len(s)}x{len(t)} tokens)")
    if train_src or train_tgt:
        if not (train_src and train_tgt):
            raise InputError("--train-src and --train-tgt go together")
        cfg["align"]["extra_src"], cfg["align"]["extra_tgt"] = train_src, train_tgt
    aligner, why = make_aligner(cfg)
    pred = aligner.align(list(zip(s_tok, t_tok, strict=True)))
    out: dict[str, Any] = score_links(pred, sure, possible)
    out["content_words"] = score_content_links(pred, sure, possible, s_tok, t_tok, cfg["src"], cfg["tgt"])
    out["aligner"] = why
    out["pairs"] = len(s_tok)
    if not has_p:
        out["note"] = "gold has only sure links: every link is treated as sure (precision and AER are pessimistic)"
    return out


# -- transfer -----------------------------------------------------------------------------------

def _covered(spans: list[tuple[int, int]], start: int, end: int) -> int:
    """Characters of [start, end) covered by the union of ``spans``."""
    cov = 0
    for s, e in spans:
        cov += max(0, min(e, end) - max(s, start))
    return cov


def _ari(labels_true: list[str], labels_pred: list[str]) -> float:
    """Adjusted Rand index (Hubert & Arabie 1985) from the contingency table."""
    from math import comb

    n = len(labels_true)
    if n < 2:
        return 1.0
    table = Counter(zip(labels_true, labels_pred, strict=True))
    a = Counter(labels_true)
    b = Counter(labels_pred)
    index = sum(comb(v, 2) for v in table.values())
    sum_a = sum(comb(v, 2) for v in a.values())
    sum_b = sum(comb(v, 2) for v in b.values())
    expected = sum_a * sum_b / comb(n, 2)
    maximum = (sum_a + sum_b) / 2
    if maximum == expected:
        return 1.0
    return (index - expected) / (maximum - expected)


def _tokens_masked(text: str, masks: list[tuple[int, int]], keep: list[tuple[int, int]]) -> tuple[int, int]:
    """(masked tokens, masked tokens overlapping none of ``keep``) of one text."""
    from ..text import tokenize

    masked = outside = 0
    for s, e in tokenize(text):
        if any(a < e and s < b for a, b in masks):
            masked += 1
            outside += not any(a < e and s < b for a, b in keep)
    return masked, outside


def _weighted_ari(true: dict[str, list[str]], pred: dict[str, list[str]]) -> float:
    """ARI per document, averaged with the documents' mention counts as weights."""
    aris = [(_ari(true[d], pred[d]), len(true[d])) for d in true]
    weight = sum(n for _, n in aris)
    return round(sum(a * n for a, n in aris) / weight, 4) if weight else 1.0


def evaluate_transfer(gold_path: str | Path, cfg: dict[str, Any], strings: bool = True,
                      limit: int | None = None) -> dict[str, Any]:
    """Run the pipeline in memory on a gold file and score both sides.

    Gold entities marked ``"public": true`` are not ACNEs: they count in no recall or leak, and are
    reported apart (``public_masked``). ``strings`` False (test sets): leaks are counted, never shown.
    ``limit``: only the first pairs, whole documents.
    """
    from ..anonymize.engine import Anonymizer
    from ..corpora.formats.gold import read_gold
    from ..inmemory import process_in_memory

    gold = list(read_gold(gold_path))
    if limit is not None and len(gold) > limit:
        last_doc = gold[limit - 1].pair.doc
        gold = gold[:limit] + [g for g in gold[limit:] if g.pair.doc == last_doc]
    results = process_in_memory([g.pair for g in gold], cfg)
    return score_transfer(gold, results, Anonymizer(cfg).allow, strings)


def score_transfer(gold: list, results: list, allow: set[str], strings: bool = True) -> dict[str, Any]:
    """The figures of ``evaluate_transfer`` from gold pairs and the pipeline's results for them (anything
    with ``src_mentions``, ``tgt_mentions`` in original coordinates and ``anonymized.src``/``.tgt``);
    ``allow``: the policy's folded allow-list entries (a public body on it is meant to stay visible)."""
    score = _TransferScore(allow, strings)
    for g, res in zip(gold, results, strict=True):
        score.add(g, res)
    return score.figures(len(gold))


class _TransferScore:
    """The counts of one :func:`score_transfer`, pair by pair."""

    def __init__(self, allow: set[str], strings: bool) -> None:
        self.allow, self.strings = allow, strings
        self.cover: dict[str, dict[str, list[int]]] = {"src": defaultdict(lambda: [0, 0]),
                                                       "tgt": defaultdict(lambda: [0, 0])}
        self.agree = Counter()
        self.by_doc_true: dict[str, list[str]] = defaultdict(list)
        self.by_doc_pred: dict[str, list[str]] = defaultdict(list)
        self.both_true: dict[str, list[str]] = defaultdict(list)
        self.both_pred: dict[str, list[str]] = defaultdict(list)
        self.leaked: list[dict[str, str]] = []
        self.public: dict[str, Counter] = {"src": Counter(), "tgt": Counter()}
        self.over: dict[str, Counter] = {"src": Counter(), "tgt": Counter()}
        self.mismatch = Counter()
        self.ent_numbers: dict[tuple[str, str], dict[str, set]] = defaultdict(lambda: {"src": set(), "tgt": set()})

    def add(self, g: Any, res: Any) -> None:
        numbers = {"src": {m.entity for m in res.src_mentions}, "tgt": {m.entity for m in res.tgt_mentions}}
        gold_ids = {side: {e["entity"] for e in ents if not e.get("public")}
                    for side, ents in (("src", g.src_entities), ("tgt", g.tgt_entities))}
        if numbers["src"] != numbers["tgt"]:
            self.mismatch["pairs"] += 1
            self.mismatch["where_gold_agrees"] += gold_ids["src"] == gold_ids["tgt"]
        for side, ents, found, public_text in (("src", g.src_entities, res.src_mentions, res.anonymized.src),
                                               ("tgt", g.tgt_entities, res.tgt_mentions, res.anonymized.tgt)):
            self._side(g, side, ents, found, public_text)

    def _side(self, g: Any, side: str, ents: list[dict], found: list, public_text: str) -> None:
        from ..text import fold, phrase_key

        spans = [(m.start, m.end) for m in found]
        pub = fold(public_text)
        text = g.pair.src if side == "src" else g.pair.tgt
        keep = []
        for e in ents:
            original = text[e["start"]:e["end"]]
            if e.get("public"):
                self.public[side]["entities"] += 1
                self.public[side]["masked"] += _covered(spans, e["start"], e["end"]) > 0
                if phrase_key(original) not in self.allow:
                    keep.append((e["start"], e["end"]))  # the policy does not say it is public
                continue
            keep.append((e["start"], e["end"]))
            n = e["end"] - e["start"]
            c = _covered(spans, e["start"], e["end"])
            for key in ("all", e["category"]):
                self.cover[side][key][0] += c
                self.cover[side][key][1] += n
            if len(original.strip()) >= 2 and _visible(fold(original), pub):
                item = {"id": g.pair.id, "side": side, "category": e["category"]}
                if self.strings:
                    item["text"] = original
                self.leaked.append(item)
            self._numbers(g.pair.doc, side, e, found)
        m_all, m_out = _tokens_masked(text, spans, keep)
        self.over[side]["masked"] += m_all
        self.over[side]["outside"] += m_out

    def _numbers(self, doc: str, side: str, e: dict, found: list) -> None:
        """The entity numbers the mentions over one gold entity carry, for agreement and coreference."""
        hits = [m for m in found if m.start < e["end"] and e["start"] < m.end]
        for m in hits:
            self.ent_numbers[doc, e["entity"]][side].add(m.entity)
        if hits:
            best = max(hits, key=lambda m: min(m.end, e["end"]) - max(m.start, e["start"]))
            self.both_true[doc].append(e["entity"])
            self.both_pred[doc].append(str(best.entity))
            if side == "src":
                self.by_doc_true[doc].append(e["entity"])
                self.by_doc_pred[doc].append(str(best.entity))

    def figures(self, n_gold: int) -> dict[str, Any]:
        agree, mismatch, public = self.agree, self.mismatch, self.public
        for nums in self.ent_numbers.values():
            if nums["src"] and nums["tgt"]:
                agree["total"] += 1
                agree["same"] += nums["src"] == nums["tgt"]
        out = {
            "src_recall": {k: round(c / n, 4) if n else 1.0 for k, (c, n) in sorted(self.cover["src"].items())},
            "tgt_recall": {k: round(c / n, 4) if n else 1.0 for k, (c, n) in sorted(self.cover["tgt"].items())},
            "number_agreement": round(agree["same"] / agree["total"], 4) if agree["total"] else 1.0,
            "coref_ari": _weighted_ari(self.by_doc_true, self.by_doc_pred),
            "coref_ari_both": _weighted_ari(self.both_true, self.both_pred),
            "over_masking": {side: {"rate": round(c["outside"] / c["masked"], 4) if c["masked"] else 0.0,
                                    "tokens": c["outside"], "of": c["masked"]} for side, c in self.over.items()},
            "side_mismatch": {"pairs": mismatch["pairs"], "of": n_gold,
                              "rate": round(mismatch["pairs"] / n_gold, 4) if n_gold else 0.0,
                              "where_gold_agrees": mismatch["where_gold_agrees"]},
            "leaks": len(self.leaked),
            "leaked": self.leaked,
            "pairs": n_gold,
            "entities_compared": agree["total"],
        }
        if public["src"]["entities"] or public["tgt"]["entities"]:
            out["public_masked"] = {side: {"entities": c["entities"], "masked": c["masked"]}
                                    for side, c in public.items()}
        return out


def _visible(folded_original: str, folded_public: str) -> bool:
    import regex

    pat = r"(?<![\p{L}\d])" + regex.escape(" ".join(folded_original.split())).replace(r"\ ", r"\s+") + r"(?![\p{L}\d])"
    return regex.search(pat, folded_public) is not None
