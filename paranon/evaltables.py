"""Plain-text tables of ``paranon eval`` results: one row per gold set (``eval ner``, ``eval transfer``,
``bench/quality.py``). Figures only: no entity string is ever put in a row."""

from __future__ import annotations

from typing import Any

CATEGORIES = ("PERSON", "ORGANIZATION", "ADDRESS", "NAMEID", "DATE")
SHORT = {"PERSON": "PER", "ORGANIZATION": "ORG", "ADDRESS": "ADDR", "NAMEID": "NAMEID", "DATE": "DATE"}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def _f(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def table(header: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell; the first column left-aligned, the others right-aligned."""
    widths = [max(len(str(r[k])) for r in [header, *rows]) for k in range(len(header))]
    lines = []
    for n, r in enumerate([header, *rows]):
        cells = [str(c).ljust(w) if k == 0 else str(c).rjust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def ner_row(name: str, kind: str, res: dict[str, Any]) -> list[str]:
    leak = res["leak_rate"]
    return [name, kind, str(res["documents"]), str(res["sentences"]),
            *(_pct(leak.get(c)) for c in CATEGORIES),
            _f(res["exact"]["untyped"]["f1"]), _f(res["token"]["untyped"]["precision"]),
            _pct(res["over_masking"]["rate"])]


NER_HEADER = ["set", "kind", "docs", "sents", *(f"leak {SHORT[c]}" for c in CATEGORIES),
              "exact F1 (untyped)", "token P", "over-mask"]


def ner_table(results: list[tuple[str, str, dict[str, Any]]]) -> str:
    """One row per (name, kind, result) of ``evaluate_ner``; '-' where the set does not score a category."""
    return table(NER_HEADER, [ner_row(n, k, r) for n, k, r in results])


def leak_why_lines(name: str, res: dict[str, Any]) -> list[str]:
    """Where the leaked tokens of each category fell: a span paranon keeps public, or nothing."""
    out = []
    for c, why in res.get("leak_why", {}).items():
        total = sum(why.values())
        if total:
            parts = ", ".join(f"{k} {v}" for k, v in why.items())
            out.append(f"{name}: leaked {c} tokens {total}: {parts}")
    return out


def over_masked_line(name: str, res: dict[str, Any], top: int = 6) -> str | None:
    """What the gold calls the tokens paranon over-masked (for gold with non-scored labels, e.g. HAREM)."""
    labels = res.get("over_masked_as")
    if not labels:
        return None
    items = list(labels.items())
    rest = sum(v for _, v in items[top:])
    parts = [f"{k} {v}" for k, v in items[:top]] + ([f"other {rest}"] if rest else [])
    return f"{name}: over-masked tokens {res['over_masking']['tokens']}: {', '.join(parts)}"


def by_doc_table(res: dict[str, Any], top: int | None = None) -> str:
    """Documents that leak most: gold entity tokens, leaked tokens per category, masked and over-masked."""
    cats = sorted(res["leak_rate"])
    rows = []
    for d in res["by_doc"][:top]:
        rows.append([d["doc"], str(d["sentences"]), str(d["gold_tokens"]),
                     *(str(d["leaked"].get(c, 0)) for c in cats), str(d["masked_tokens"]), str(d["over_masked"])])
        for s in d.get("leaked_strings", []):
            rows.append([f"    {s}", *[""] * (5 + len(cats) - 1)])
    header = ["document", "sents", "gold tok", *(f"leaked {SHORT.get(c, c)}" for c in cats), "masked", "over-masked"]
    return table(header, rows)


TRANSFER_HEADER = ["set", "kind", "pairs", "src recall", "tgt recall", "leaks", "number agr", "ARI both",
                   "tgt over-mask", "side mismatch", "public masked"]


def transfer_row(name: str, kind: str, res: dict[str, Any]) -> list[str]:
    pub = res.get("public_masked")
    pub_cell = "-" if not pub else " ".join(f"{side} {pub[side]['masked']}/{pub[side]['entities']}"
                                            for side in ("src", "tgt"))
    sm = res["side_mismatch"]
    return [name, kind, str(res["pairs"]), _f(res["src_recall"].get("all")), _f(res["tgt_recall"].get("all")),
            str(res["leaks"]), _f(res["number_agreement"]), _f(res["coref_ari_both"]),
            _pct(res["over_masking"]["tgt"]["rate"]), f"{sm['pairs']} ({_pct(sm['rate'])})", pub_cell]


def transfer_table(results: list[tuple[str, str, dict[str, Any]]]) -> str:
    return table(TRANSFER_HEADER, [transfer_row(n, k, r) for n, k, r in results])


def recall_lines(results: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """Recall per side and category (share of gold entity characters hidden) of ``evaluate_transfer``."""
    out = []
    for name, _, res in results:
        for side in ("src", "tgt"):
            cats = {c: v for c, v in res[f"{side}_recall"].items() if c != "all"}
            if cats:
                out.append(f"{name}: {side} recall " + ", ".join(f"{c} {v:.3f}" for c, v in cats.items()))
    return out


def align_lines(res: dict[str, Any]) -> list[str]:
    """``eval align``'s figures: all links and the links with a content word at either end."""
    header = ["links", "precision", "recall", "F1", "AER", "predicted", "gold sure"]
    rows = [[name, _f(r["precision"]), _f(r["recall"]), _f(r["f1"]), _f(r["aer"]), str(r["links"]), str(r["gold_sure"])]
            for name, r in (("all", res), ("content words", res["content_words"]))]
    lines = [f"aligner: {res['aligner']}; {res['pairs']} pairs", table(header, rows)]
    return lines + ([f"note: {res['note']}"] if "note" in res else [])
