"""The whole run, one way: read -> anonymize source -> align -> transfer to target -> write -> index.

Each stage lives in its own package; this module only wires them and keeps the
counts for ``report.json``. Every output is written to a temporary name and
renamed when complete.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from itertools import groupby
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .align.aligners import make_aligner
from .align.transfer import Transferrer, map_links, tokenize
from .anonymize.engine import Anonymizer, Replaced, apply_mentions
from .anonymize.keystore import KeyStore
from .anonymize.recognizer import DocumentMemory, Segment
from .corpora.formats import (
    InputError,
    JsonlWriter,
    Problems,
    TmxWriter,
    TsvWriter,
    atomic_write,
    read_corpus,
)
from .corpora.model import AnonymizedPair, Inline, Mention, SegmentPair, pharaoh, remap_offset
from .report import write_report

log = logging.getLogger("paranon")

_WORKER: Anonymizer | None = None


def _init_worker(cfg: dict) -> None:
    global _WORKER
    _WORKER = Anonymizer(cfg)


def _anonymize_batch(docs: list[list[SegmentPair]]) -> list[tuple[list[SegmentPair], list, int]]:
    assert _WORKER is not None
    out = []
    for pairs in docs:
        res = _WORKER.anonymize_document(pairs)
        out.append((pairs, res, _WORKER.numberer.next))
    return out


def documents(pairs: Iterable[SegmentPair]) -> Iterator[list[SegmentPair]]:
    """Consecutive pairs of the same document."""
    for _, group in groupby(pairs, key=lambda p: p.doc):
        yield list(group)


def _batches(docs: Iterator[list[SegmentPair]], size: int) -> Iterator[list[list[SegmentPair]]]:
    batch: list[list[SegmentPair]] = []
    n = 0
    for d in docs:
        batch.append(d)
        n += len(d)
        if n >= size:
            yield batch
            batch, n = [], 0
    if batch:
        yield batch


def _remap_inline(inline: list[Inline], reps: list[tuple[int, int, int]]) -> list[Inline]:
    return [Inline(remap_offset(i.offset, reps), i.xml) for i in inline]


def target_id_finder(anonymizer: Anonymizer):
    """Identifiers in the target found by the language-independent NAMEID patterns."""
    from .anonymize.recognizers.nameid import NameIdRecognizer

    rec = next((r for r in anonymizer.recognizers if isinstance(r, NameIdRecognizer)), None)
    if rec is None or "NAMEID" not in anonymizer.categories:
        return None

    def find(text: str) -> list[tuple[int, int, str]]:
        seg = Segment(text=text, doc=None, memory=DocumentMemory())  # type: ignore[arg-type]
        return [(m.start, m.end, m.category) for m in rec.find(seg) if m.category == "NAMEID"]

    return find


def run(input_path: str | Path, outdir: str | Path, cfg: dict[str, Any], quiet: bool = False) -> dict[str, Any]:
    outdir = Path(outdir)
    if not Path(input_path).exists() and cfg["input"].get("format") != "moses" \
            and not Path(f"{input_path}.{cfg['src']}").exists():
        raise InputError(f"{input_path}: no such file or folder")
    outdir.mkdir(parents=True, exist_ok=True)
    src_lang, tgt_lang = cfg["src"], cfg["tgt"]
    inp = cfg["input"]
    problems = Problems(strict=bool(inp.get("strict")))
    timings: dict[str, float] = {}
    anonymizer = Anonymizer(cfg)
    workers = int(cfg.get("workers") or 0) or os.cpu_count() or 1
    if anonymizer.scope == "corpus":
        workers = 1  # corpus-wide numbering needs one numberer

    # 1. read + anonymize the source side, a document at a time
    t0 = time.perf_counter()
    pairs_iter = read_corpus(input_path, src_lang, tgt_lang, problems, inp.get("format"), inp.get("src_col"),
                             inp.get("tgt_col"))
    spool: list[tuple[SegmentPair, list[Mention], Replaced, int]] = []
    bar = tqdm(desc="anonymize", unit=" pairs", disable=quiet, mininterval=0.5)
    batches = _batches(documents(pairs_iter), int(cfg.get("chunk_size", 2000)))
    if workers > 1:
        ctx = get_context("fork") if hasattr(os, "fork") else get_context("spawn")
        pool = ctx.Pool(workers, initializer=_init_worker, initargs=(cfg,))
        results = pool.imap(_anonymize_batch, batches)
    else:
        global _WORKER
        _WORKER = anonymizer
        pool = None
        results = map(_anonymize_batch, batches)
    try:
        for batch in results:
            for pairs, res, next_free in batch:
                for p, (ms, rep) in zip(pairs, res, strict=True):
                    spool.append((p, ms, rep, next_free))
                bar.update(len(pairs))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        bar.close()
    timings["read_anonymize"] = time.perf_counter() - t0

    # 2. word alignment over (anonymized source, original target) tokens, trained on the whole corpus
    t0 = time.perf_counter()
    aligner, why = make_aligner(cfg)
    log.info("aligner: %s", why)
    src_toks = [tokenize(rep.text) for _, _, rep, _ in spool]
    tgt_toks = [tokenize(p.tgt) for p, _, _, _ in spool]
    words = [([rep.text[s:e] for s, e in st], [p.tgt[s:e] for s, e in tt])
             for (p, _, rep, _), st, tt in zip(spool, src_toks, tgt_toks, strict=True)]
    links_all = aligner.align(words) if spool else []
    timings["align"] = time.perf_counter() - t0

    # 3. transfer to the target side, 4. write
    t0 = time.perf_counter()
    transferrer = Transferrer(target_id_finder(anonymizer), anonymizer.lex.common, anonymizer.lex.places,
                              anonymizer.lex.first | anonymizer.lex.last)
    variants: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for p, ms, _, _ in spool:
        for m in ms:
            variants[p.doc][m.entity].add(m.text)
    next_by_scope: dict[str, int] = {}
    stats: dict[str, Any] = {"src": Counter(), "tgt": Counter(), "rules": Counter(), "steps": Counter(),
                             "untransferred": Counter(), "untransferred_units": [], "guard_masks": 0,
                             "target_only": 0, "entities": {}}
    keys = KeyStore(outdir / ".keys.sqlite.part")
    written = 0
    with atomic_write(outdir / "corpus.jsonl") as fj, atomic_write(outdir / "corpus.tmx") as fx, \
            atomic_write(outdir / f"corpus.{src_lang}") as fs, atomic_write(outdir / f"corpus.{tgt_lang}") as ft, \
            atomic_write(outdir / "corpus.tsv") as fv, atomic_write(outdir / "alignments.pharaoh") as fa:
        jw, xw, vw = JsonlWriter(fj), TmxWriter(fx, src_lang, tgt_lang), TsvWriter(fv, src_lang, tgt_lang)
        for (p, ms, rep, next_free), st, links in tqdm(zip(spool, src_toks, links_all, strict=True), total=len(spool),
                                                       desc="transfer+write", unit=" pairs", disable=quiet,
                                                       mininterval=0.5):
            scope = anonymizer.scope_key(p)
            if anonymizer.scope == "segment":
                nxt = max([m.entity for m in ms], default=0) + 1
            else:
                nxt = max(next_by_scope.get(scope, 0), next_free)
            tr = transferrer.transfer(ms, st, rep.mentions, p.tgt, links, variants[p.doc], nxt)
            if anonymizer.scope != "segment":
                next_by_scope[scope] = max([nxt] + [m.entity + 1 for m in tr.mentions])
            tgt_rep = apply_mentions(p.tgt, tr.mentions, anonymizer.ops, scope)
            tgt_links = map_links(links, tokenize(p.tgt), tgt_rep.text, tgt_rep.replacements)
            ap = AnonymizedPair(id=p.id, doc=p.doc, src=rep.text, tgt=tgt_rep.text, src_lang=src_lang,
                                tgt_lang=tgt_lang, meta=p.meta, src_mentions=rep.mentions,
                                tgt_mentions=tgt_rep.mentions, alignment=tgt_links,
                                src_inline=_remap_inline(p.src_inline, rep.replacements),
                                tgt_inline=_remap_inline(p.tgt_inline, tgt_rep.replacements))
            jw.write(ap)
            xw.write(ap)
            vw.write(ap)
            fs.write(ap.src.replace("\n", " ") + "\n")
            ft.write(ap.tgt.replace("\n", " ") + "\n")
            fa.write(pharaoh(ap.alignment) + "\n")
            keys.add_pair(ap, scope)
            written += 1
            for m in ap.src_mentions:
                stats["src"][m.category] += 1
                stats["rules"][f"{m.recognizer}|{m.rule}"] += 1
                ent = stats["entities"].setdefault(f"{scope}#{m.entity}", {
                    "scope": scope, "number": m.entity, "category": m.label, "mentions": 0, "rules": Counter()})
                ent["mentions"] += 1
                ent["rules"][f"{m.recognizer}:{m.rule}"] += 1
            for m in ap.tgt_mentions:
                stats["tgt"][m.category] += 1
            stats["steps"].update(tr.steps)
            stats["guard_masks"] += tr.guard_masks
            stats["target_only"] += tr.target_only
            for m in tr.untransferred:
                stats["untransferred"][m.category] += 1
                if len(stats["untransferred_units"]) < 1000:
                    stats["untransferred_units"].append({"id": p.id, "category": m.category, "entity": m.entity})
        xw.close()
    keys.close()
    os.replace(outdir / ".keys.sqlite.part", outdir / "keys.sqlite")
    timings["transfer_write"] = time.perf_counter() - t0

    if cfg.get("index", {}).get("enabled", True):
        from .search_portal.indexer import build_index

        t0 = time.perf_counter()
        build_index(outdir, quiet=quiet)
        timings["index"] = time.perf_counter() - t0

    report = {
        "input": str(input_path), "src_lang": src_lang, "tgt_lang": tgt_lang, "aligner": why,
        "units": {"read": written + problems.skipped, "written": written, "skipped": problems.skipped,
                  "skipped_by_reason": dict(problems.reasons), "skipped_examples": problems.examples},
        "mentions": {"src": dict(stats["src"]), "tgt": dict(stats["tgt"])},
        "entities": len(stats["entities"]),
        "rules": dict(stats["rules"].most_common()),
        "transfer": {"steps": dict(stats["steps"]), "guard_masks": stats["guard_masks"],
                     "target_only": stats["target_only"], "untransferred": dict(stats["untransferred"]),
                     "untransferred_units": stats["untransferred_units"]},
        "scope": anonymizer.scope, "workers": workers,
        "timings_s": {k: round(v, 3) for k, v in timings.items()},
    }
    entity_rows = [{**e, "rules": dict(e["rules"])} for e in stats["entities"].values()]
    write_report(outdir, report, entity_rows)
    with atomic_write(outdir / "report.json") as fh:
        json.dump(report, fh, ensure_ascii=False, indent=2)
    return report
