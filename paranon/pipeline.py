"""The whole run, one way: read -> anonymize source -> align -> transfer to target -> write -> index.

Each stage lives in its own package; this module only wires them, keeps the counts
for ``report.json`` and makes the run resumable:

* the corpus is cut into chunks of whole documents (``chunk_size`` pairs); each
  anonymized chunk is checkpointed in ``OUTDIR/.work`` (owner-only: it holds
  originals until the run ends, then it is deleted);
* the aligner learns from the whole corpus once, reading token files from disk;
* transfer and writing go chunk by chunk into part files, committed with their
  key-store rows; the final files are concatenated from the parts and renamed
  into place only when complete.

Killing the run at any point and starting the same command again continues from
the last completed chunk; the outputs are the same as an uninterrupted run's,
and the same whatever ``--workers`` is (documents are anonymized independently
and eflomal is seeded). ``--restart`` throws the checkpoints away.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import pickle
import shutil
import sqlite3
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from itertools import groupby
from pathlib import Path
from typing import Any

from tqdm import tqdm

from .align.aligners import EflomalAligner, Links, make_aligner, symmetrize_lines
from .align.edges import trim_translated_heads
from .align.english import EnglishRecognizer
from .align.sides import settle
from .align.target import (
    MIN_ALIGNED_PAIRS,
    allowed_source_tokens,
    drop_allowed,
    earned_by_step,
    spreadable,
    warm_target_lexicons,
)
from .align.transfer import Transferrer, TransferResult, map_links
from .anonymize.consistency import CorpusForms, form_key
from .anonymize.engine import Anonymizer, Replaced, apply_mentions
from .anonymize.keystore import KeyStore
from .anonymize.recognizer import DocumentMemory, Segment
from .corpora.formats import (
    DOCUMENT_PAIRS,
    InputError,
    JsonlWriter,
    Problems,
    TmxWriter,
    TsvWriter,
    atomic_write,
    read_corpus,
)
from .corpora.model import AnonymizedPair, Inline, Mention, SegmentPair, parse_pharaoh, pharaoh, remap_offset
from .limits import SegmentLimit
from .parallel import in_order, use_scheduler
from .privacy import InputPlaceholders, MetadataPolicy, OpaqueIds, prepare_metadata
from .report import publish_report
from .runlock import OutdirLock, clean_leftovers
from .text import phrase_key, token_words, tokenize

log = logging.getLogger("paranon")

# what the anonymize stage hands on for one pair: the pair, its source mentions (original
# coordinates), the replaced source, and the first free entity number after its document
Anonymized = tuple[SegmentPair, list[Mention], Replaced, int]
PARTS = ("jsonl", "tmx", "src", "tgt", "tsv", "pharaoh")
WORK_VERSION = 8  # 7: opaque ids and anonymized metadata in the checkpoints; 8: target forms' evidence

_WORKER: Anonymizer | None = None


def _quiet_gc() -> None:
    """Freeze what exists and collect young objects less often. The lexicons and rules are hundreds of
    thousands of long-lived objects that the cyclic collector would walk again and again while the stages
    make millions of short-lived ones (about a tenth of the anonymize stage's time); frozen objects also
    stay shared, untouched, between forked workers."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def _init_worker(cfg: dict) -> None:
    """Build the worker's anonymizer; a forked worker already has its parent's (same config), and a Dask
    worker keeps the one it built for an earlier stage or run if the config is the same."""
    global _WORKER
    if _WORKER is None or _WORKER.cfg != cfg:
        _WORKER = Anonymizer(cfg)
        _quiet_gc()


def _reset_worker() -> None:
    """Before a Dask worker's first job of a stage: drop what an earlier stage (or run) left in this
    process. A pool's processes never need it: each stage forks its own from the parent."""
    global _FORMS, _CORPUS, _FINISHER, _TARGETS
    _FORMS = _CORPUS = _FINISHER = _TARGETS = None


def _anonymize_docs(docs: list[list[SegmentPair]]) -> list[Anonymized]:
    """Each document's pairs anonymized, with their metadata and inline code (``paranon.privacy``): those
    texts go through the anonymizer as extra segments after the document's own, so that a name in a note
    takes the number it has in the text."""
    assert _WORKER is not None
    policy = MetadataPolicy.from_config(_WORKER.cfg)
    out: list[Anonymized] = []
    for pairs in docs:
        preps = [prepare_metadata(p, policy) for p in pairs]
        extra = [SegmentPair(id=p.id, doc=p.doc, src=t, tgt="", src_lang=p.src_lang, tgt_lang=p.tgt_lang)
                 for p, prep in zip(pairs, preps, strict=True) for t in prep.texts]
        res = _WORKER.anonymize_document(pairs + extra)
        rest = iter(res[len(pairs):])
        for prep in preps:
            prep.fill([next(rest)[1].text for _ in prep.texts])
        nxt = _WORKER.numberer.next
        out += [(p, ms, rep, nxt) for p, (ms, rep) in zip(pairs, res[:len(pairs)], strict=True)]
    return out


def _anonymize_batch(job: tuple[int, list[list[SegmentPair]], Path]) -> tuple[int, int]:
    """Anonymize one chunk and save it, with the entity forms its documents found (for corpus consistency,
    so that stage need not read every chunk back to collect them); returns (chunk, pairs). The worker
    saves the chunk itself: sending it back to the parent would pickle it twice more."""
    k, docs, work = job
    assert _WORKER is not None
    out = _anonymize_docs(docs)
    payload: dict[str, Any] = {"items": out}
    if _WORKER.scope == "corpus":  # sequential: the numbering continues from chunk to chunk
        payload["numberer"] = _WORKER.numberer
    _dump(work / f"forms-{k:06d}.pkl", _corpus_forms(_WORKER, [out]).state())
    _dump(work / f"anon-{k:06d}.pkl", payload)  # last: anon-K.pkl marks the chunk done
    return k, len(out)


def documents(pairs: Iterable[SegmentPair]) -> Iterator[list[SegmentPair]]:
    """Consecutive pairs of the same document."""
    for _, group in groupby(pairs, key=lambda p: p.doc):
        yield list(group)


def chunks(docs: Iterator[list[SegmentPair]], size: int) -> Iterator[tuple[int, list[list[SegmentPair]]]]:
    """Numbered chunks of whole documents, each of about ``size`` pairs (a document is never split)."""
    batch: list[list[SegmentPair]] = []
    n = k = 0
    for d in docs:
        batch.append(d)
        n += len(d)
        if n >= size:
            yield k, batch
            batch, n, k = [], 0, k + 1
    if batch:
        yield k, batch


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


# a chunk's target forms: form key -> [(category, subtype, rule, ends with a dot), source form keys of its
# entity, earned (a string or pattern step found it), pairs where alignment alone found it (most for one
# entity of a document, added over the documents)]
TargetFound = dict[str, list]


def is_target_form(m: Mention, key: str) -> bool:
    """Whether a target mention's text may be masked wherever else it appears, by its kind: a plausible name
    (capitalized content words, not one frequent English word, not a country), a date, an identifier as the
    source side's corpus forms take them. Whether it earned its spread is counted apart (``align/target.py``)."""
    return spreadable(m, key)


def _form_numbers(entity_texts: dict[int, set[str]]) -> dict[str, int]:
    """Form key -> entity number, for one document's entities and the texts of their mentions."""
    return {form_key(t): e for e, texts in entity_texts.items() for t in texts}


def target_forms_of(founds: Iterable[TargetFound]) -> tuple[CorpusForms | None, dict[str, set[str]], set[str]]:
    """The corpus's target forms from the chunks' (in chunk order: a form keeps its first kind): those a string
    or pattern step found (also returned apart: they spread freely), and those aligned in two pairs or more."""
    forms, sources = CorpusForms(), {}
    evidence: dict[str, list] = {}
    for found in founds:
        for key, (kind, src, earned, aligned) in found.items():
            ev = evidence.setdefault(key, [kind, set(), False, 0])
            ev[1].update(src)
            ev[2] = ev[2] or earned
            ev[3] += aligned
    free = set()
    for key, (kind, src, earned, aligned) in evidence.items():
        if earned or aligned >= MIN_ALIGNED_PAIRS:  # a form aligned once in the whole corpus does not spread
            forms._add_kind(key, kind)
            sources[key] = src
            if earned:
                free.add(key)
    return (forms if sources else None), sources, free


@dataclass
class PairResult:
    """One finished pair. ``src_mentions``/``tgt_mentions`` are in original coordinates (private)."""

    anonymized: AnonymizedPair
    src_mentions: list[Mention]
    tgt_mentions: list[Mention]
    transfer: TransferResult
    scope: str


class Finisher:
    """Transfer to the target and replacement there, one pair at a time, in corpus order."""

    def __init__(self, anonymizer: Anonymizer, src_lang: str, tgt_lang: str) -> None:
        self.an = anonymizer
        self.src_lang, self.tgt_lang = src_lang, tgt_lang
        self.transferrer = Transferrer(target_id_finder(anonymizer), anonymizer.lex.common, anonymizer.lex.places,
                                       anonymizer.lex.first | anonymizer.lex.last,
                                       anonymizer.rules["organization"]["tails"],
                                       EnglishRecognizer() if tgt_lang.lower().startswith("en") else None)
        warm_target_lexicons()  # wordfreq's English list and the country names, before the workers fork
        self.next_by_scope: dict[str, int] = {}
        self.forms: CorpusForms | None = None

    def finish_chunk(self, items: list[Anonymized], links: list[list[tuple[int, int]]]) -> Iterator[PairResult]:
        """Both passes on one chunk that is the whole corpus (``process_in_memory``)."""
        done, found = self.transfer_chunk(items, links)
        targets, sources, free = target_forms_of([found]) if self.forms is not None else (None, {}, set())
        yield from self.finish_transferred(items, links, done, targets, sources, free)

    @staticmethod
    def _variants(items: list[Anonymized]) -> dict[str, dict[int, set[str]]]:
        variants: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
        for p, ms, _, _ in items:
            for m in ms:
                variants[p.doc][m.entity].add(m.text)
        return variants

    def transfer_chunk(self, items: list[Anonymized], links: list[list[tuple[int, int]]]
                       ) -> tuple[list[tuple[TransferResult, str]], TargetFound]:
        """Pass 1: every pair's target mentions. Within a document, the target forms the transfer found in one
        pair are masked in the others (``European Regions Airline Association`` aligned in one pair is hidden
        in the next too, where no source mention pointed at it). Returns the results and the chunk's target
        forms, each with the source forms of its entity (for pass 2, across documents)."""
        variants = self._variants(items)
        out: list[tuple[TransferResult, str]] = []
        found: TargetFound = {}
        for doc, group in groupby(zip(items, links, strict=True), key=lambda x: x[0][0].doc):
            numbers = _form_numbers(variants[doc]) if self.forms is not None else None
            pairs = list(group)
            done = [self.transfer(*item, lk, variants[doc], numbers) for item, lk in pairs]
            doc_forms, doc_numbers = CorpusForms(), {}
            firsts: dict[str, Mention] = {}
            earned: set[str] = set()
            aligned: dict[tuple[str, int], set[int]] = defaultdict(set)  # (form, entity) -> pairs aligning it
            for i, (tr, _) in enumerate(done):
                for m in tr.mentions:
                    key = form_key(m.text)
                    if is_target_form(m, key) and phrase_key(m.text) not in self.an.allow \
                            and (m.recognizer != "transfer:string" or self._source_spreads(m, key)):
                        firsts.setdefault(key, m)
                        if earned_by_step(m):
                            earned.add(key)
                        else:
                            aligned[key, m.entity].add(i)
                        found.setdefault(key, [CorpusForms.kind_of(m), set(), False, 0])[1].update(
                            form_key(t) for t in variants[doc].get(m.entity, ()))
            most: dict[str, int] = defaultdict(int)
            for (key, _e), where in aligned.items():
                most[key] = max(most[key], len(where))
            for key, m in firsts.items():
                if key in earned or most[key] >= MIN_ALIGNED_PAIRS:  # the form earned its spread
                    doc_forms._add(key, m)
                    doc_numbers[key] = m.entity
                found[key][2] = found[key][2] or key in earned
                found[key][3] += most[key]
            for ((p, ms, _rep, _), _lk), (tr, _scope) in zip(pairs, done, strict=True):
                if doc_numbers:  # a target-only entity is the document's entity of the same form
                    tr.mentions = [replace(m, entity=doc_numbers[k]) if m.recognizer == "transfer:target_only"
                                   and (k := form_key(m.text)) in doc_numbers else m for m in tr.mentions]
                    extra, _ = doc_forms.mentions(p.tgt, tr.mentions, doc_numbers, 0)
                    extra = self._with_source(ms, extra, tr, earned)
                    if extra:
                        tr.mentions = sorted(tr.mentions + extra, key=lambda m: m.start)
                        tr.steps["target_consistency"] = len(extra)
            out += done
        return out, found

    def finish_transferred(self, items: list[Anonymized], links: list[list[tuple[int, int]]],
                           done: list[tuple[TransferResult, str]], targets: CorpusForms | None,
                           sources: dict[str, set[str]], free: set[str] = frozenset()) -> Iterator[PairResult]:
        """Pass 2: the target forms of the whole corpus masked where they still show (a translated name the
        alignment missed in this document but found in another), then the pairs replaced. An occurrence takes
        the number of this document's entity with the same source form. A form of ``free`` (an original's text,
        a date or identifier pattern: its occurrence is a leak) is masked wherever it shows, under a new number
        if the document has no such entity; a translated form only where its entity is on the pair's source
        side too (else it is counted as withheld: one entity, one number, both sides)."""
        variants = self._variants(items)
        assigned: dict[tuple[str, str], int] = {}
        src_numbers: dict[str, dict[str, int]] = {}
        for (p, ms, rep, _), lk, (tr, scope) in zip(items, links, done, strict=True):
            if targets is not None:
                hits = targets.find(p.tgt, tr.mentions)
                if hits:
                    if p.doc not in src_numbers:
                        src_numbers[p.doc] = _form_numbers(variants[p.doc])
                    extra = []
                    here = {m.entity for m in ms}
                    for s, e, key in hits:
                        if (scope, key) not in assigned:
                            same = [src_numbers[p.doc][k] for k in sources.get(key, ()) if k in src_numbers[p.doc]]
                            same = [n for n in same if n in here] if self.an.scope == "segment" else same
                            if not same and key not in free:  # a translation with no source entity here
                                tr.steps["target_spread_withheld"] = tr.steps.get("target_spread_withheld", 0) + 1
                                continue
                            assigned[scope, key] = min(same) if same else self._new_number(scope, ms, tr, extra)
                        if key not in free and assigned[scope, key] not in here:  # not on this pair's source side
                            tr.steps["target_spread_withheld"] = tr.steps.get("target_spread_withheld", 0) + 1
                            continue
                        cat, sub, rule, _ = targets.kinds[targets.forms[key]]
                        extra.append(Mention(s, e, cat, p.tgt[s:e], "consistency", f"corpus-target:{rule}", sub, 0.9,
                                             entity=assigned[scope, key]))
                    tr.mentions = sorted(tr.mentions + extra, key=lambda m: m.start)
                    if extra:
                        tr.steps["corpus_target_consistency"] = len(extra)
                    if self.an.allow:
                        self._keep_allowed_visible(p, ms, rep, lk, tr)
            settle(p.src, ms, tr)  # english2: the source's public dates stay visible, spread English words unmasked
            yield self.replace(p, ms, rep, lk, tr, scope)

    def _source_spreads(self, m: Mention, key: str) -> bool:
        """Whether the source side would spread this form of a name (its original's text): not when its words
        are all ordinary Portuguese words and none a name (``IEC``, ``ACP`` as ``_propagation_forms`` has it)."""
        if m.category not in ("PERSON", "ORGANIZATION"):
            return True
        lex, fw = self.an.lex, self.an.function_words
        words = key.split()
        return not all(w in lex.common or w in fw for w in words) or any(w in lex.first or w in lex.last for w in words)

    @staticmethod
    def _with_source(ms: list[Mention], extra: list[Mention], tr: TransferResult, free: set[str]) -> list[Mention]:
        """The spread target mentions of ``free`` forms (an original's text, a pattern's value: a leak where
        they show), and those whose entity is on the pair's source side too (one entity, one number, both
        sides); the others are counted as withheld."""
        here = {m.entity for m in ms}
        kept = [m for m in extra if m.entity in here or form_key(m.text) in free]
        if len(kept) < len(extra):
            tr.steps["target_spread_withheld"] = tr.steps.get("target_spread_withheld", 0) + len(extra) - len(kept)
        return kept

    def _new_number(self, scope: str, ms: list[Mention], tr: TransferResult, extra: list[Mention]) -> int:
        used = [m.entity for m in ms + tr.mentions + extra]
        if self.an.scope == "segment":
            return max(used, default=0) + 1
        n = max([self.next_by_scope.get(scope, 0)] + [u + 1 for u in used])
        self.next_by_scope[scope] = n + 1
        return n

    def transfer(self, p: SegmentPair, ms: list[Mention], rep: Replaced, next_free: int,
                 links: list[tuple[int, int]], variants: dict[int, set[str]],
                 numbers: dict[str, int] | None) -> tuple[TransferResult, str]:
        """The pair's target mentions. ``numbers`` (with corpus forms): the entity number of each form of the
        document (its mentions' variants), kept across the document's pairs so that a form found on the
        target side gets one number."""
        an = self.an
        scope = an.scope_key(p)
        if an.scope == "segment":
            nxt = max([m.entity for m in ms], default=0) + 1
        else:
            nxt = max(self.next_by_scope.get(scope, 0), next_free)
        tr = self.transferrer.transfer(ms, tokenize(rep.text), rep.mentions, p.tgt, links, variants, nxt)
        trim_translated_heads(tr, rep.text, rep.mentions, p.tgt, links)  # english2: "Regulation of the" <ORG>
        if self.forms is not None:  # entity forms of the whole corpus, on the target side too
            assert numbers is not None  # finish_chunk makes them once per document
            extra, _ = self.forms.mentions(p.tgt, tr.mentions, numbers,
                                           max([nxt] + [m.entity + 1 for m in tr.mentions]))
            if extra:
                tr.mentions = sorted(tr.mentions + extra, key=lambda m: m.start)
                tr.steps["consistency"] = len(extra)
        if an.allow:
            self._keep_allowed_visible(p, ms, rep, links, tr)
        if an.scope != "segment":
            self.next_by_scope[scope] = max([nxt] + [m.entity + 1 for m in tr.mentions])
        return tr, scope

    def _keep_allowed_visible(self, p: SegmentPair, ms: list[Mention], rep: Replaced, links: list[tuple[int, int]],
                              tr: TransferResult) -> None:
        """The allow list on the target side: an allowed form, or the words aligned to an allowed source form,
        stay visible (``Parlamento Europeu`` allowed keeps ``European Parliament``)."""
        if not tr.mentions:
            return  # nothing to keep visible: no tokenizing
        src_toks = allowed_source_tokens(rep.text, tokenize(rep.text), self.an.allow)
        protected = {j for i, j in links if i in src_toks}
        kept = drop_allowed(tr.mentions, p.tgt, tokenize(p.tgt) if protected else [], self.an.allow, protected,
                            {m.entity for m in ms})
        if len(kept) != len(tr.mentions):
            tr.steps["allowed_visible"] = tr.steps.get("allowed_visible", 0) + len(tr.mentions) - len(kept)
            tr.mentions = kept

    def replace(self, p: SegmentPair, ms: list[Mention], rep: Replaced, links: list[tuple[int, int]],
                tr: TransferResult, scope: str) -> PairResult:
        """The finished pair: the target replaced, the links mapped onto the replaced texts."""
        an = self.an
        tgt_rep = apply_mentions(p.tgt, tr.mentions, an.ops, scope)
        tgt_links = map_links(links, tokenize(p.tgt), tgt_rep.text, tgt_rep.replacements)
        ap = AnonymizedPair(id=p.id, doc=p.doc, src=rep.text, tgt=tgt_rep.text, src_lang=self.src_lang,
                            tgt_lang=self.tgt_lang, meta=p.meta, src_mentions=rep.mentions,
                            tgt_mentions=tgt_rep.mentions, alignment=tgt_links,
                            src_inline=_remap_inline(p.src_inline, rep.replacements),
                            tgt_inline=_remap_inline(p.tgt_inline, tgt_rep.replacements))
        return PairResult(ap, ms, tr.mentions, tr, scope)


def process_in_memory(pairs: list[SegmentPair], cfg: dict[str, Any]) -> list[PairResult]:
    """The whole anonymize -> align -> transfer chain on a small list of pairs (for evaluation and tests)."""
    anonymizer = Anonymizer(cfg)
    global _WORKER
    _WORKER = anonymizer
    items: list[Anonymized] = []
    for _, batch in chunks(documents(pairs), 10**9):
        items += _anonymize_docs(batch)
    forms = None
    if cfg["anonymize"].get("corpus_consistency", True):
        forms = _corpus_forms(anonymizer, [items])
        corpus = _CorpusNumbers([items]) if anonymizer.scope == "corpus" else None
        items, _ = _make_consistent(items, forms, anonymizer, corpus)
    aligner, _ = make_aligner(cfg)
    links = aligner.align([(token_words(rep.text), token_words(p.tgt)) for p, _, rep, _ in items])
    finisher = Finisher(anonymizer, cfg["src"], cfg["tgt"])
    finisher.forms = forms
    return list(finisher.finish_chunk(items, links))


# -- the resumable run -------------------------------------------------------------------------

class Stats:
    """Counts for the report; small (no per-entity state: entities are counted in the key store)."""

    def __init__(self) -> None:
        self.src: Counter = Counter()
        self.tgt: Counter = Counter()
        self.rules: Counter = Counter()
        self.steps: Counter = Counter()
        self.untransferred: Counter = Counter()
        self.untransferred_units: list[dict] = []
        self.guard_masks = 0
        self.consistency_tgt = 0
        self.target_only = 0
        self.written = 0

    def add(self, r: PairResult) -> None:
        self.written += 1
        for m in r.anonymized.src_mentions:
            self.src[m.category] += 1
            self.rules[f"{m.recognizer}|{m.rule}"] += 1
        for m in r.anonymized.tgt_mentions:
            self.tgt[m.category] += 1
        self.steps.update(r.transfer.steps)
        self.guard_masks += r.transfer.guard_masks
        self.consistency_tgt += r.transfer.steps.get("consistency", 0)
        self.target_only += r.transfer.target_only
        for m in r.transfer.untransferred:
            self.untransferred[m.category] += 1
            if len(self.untransferred_units) < 1000:
                self.untransferred_units.append({"id": r.anonymized.id, "category": m.category, "entity": m.entity})

    def to_json(self) -> dict:
        return {k: (dict(v) if isinstance(v, Counter) else v) for k, v in vars(self).items()}

    def merge(self, d: dict) -> None:
        for k, v in d.items():
            cur = getattr(self, k)
            if isinstance(cur, Counter):
                cur.update(v)
            elif isinstance(cur, list):
                cur += v[: max(0, 1000 - len(cur))]
            else:
                setattr(self, k, cur + v)


def _fingerprint(input_path: str | Path, cfg: dict[str, Any]) -> str:
    """What a checkpoint belongs to: the input files (name, size, mtime) and every setting but where the
    jobs run (``workers``, ``scheduler``): a run may resume on another cluster."""
    p = Path(input_path)
    files = sorted(p.rglob("*")) if p.is_dir() else [f for f in (p, Path(f"{p}.{cfg['src']}"),
                                                                  Path(f"{p}.{cfg['tgt']}")) if f.exists()]
    h = hashlib.sha256()
    for f in files:
        if f.is_file():
            st = f.stat()
            h.update(f"{f.resolve()}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    settings = {k: v for k, v in cfg.items() if k not in ("workers", "scheduler")}
    h.update(json.dumps(settings, sort_keys=True, default=str).encode())
    h.update(str(WORK_VERSION).encode())
    return h.hexdigest()


def _dump(path: Path, obj: Any) -> None:
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "wb") as fh:
        pickle.dump(obj, fh, protocol=pickle.HIGHEST_PROTOCOL)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _load(path: Path) -> Any:
    with open(path, "rb") as fh:
        return pickle.load(fh)


def _write_json(path: Path, obj: Any) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _open_work(outdir: Path, fingerprint: str, restart: bool) -> tuple[Path, bool]:
    work = outdir / ".work"
    state = work / "state.json"
    resumed = False
    if work.exists():
        same = state.exists() and json.loads(state.read_text(encoding="utf-8")).get("fingerprint") == fingerprint
        if restart or not same:
            if not restart:
                log.info("checkpoints in %s belong to another input or config: starting over", work)
            shutil.rmtree(work)
        else:
            resumed = True
    work.mkdir(parents=True, exist_ok=True)
    work.chmod(0o700)  # holds originals until the run ends
    _write_json(state, {"fingerprint": fingerprint})
    return work, resumed


def _stage_anonymize(input_path: str | Path, cfg: dict[str, Any], work: Path, anonymizer: Anonymizer,
                     workers: int, quiet: bool) -> dict:
    """Anonymize chunk by chunk; returns the reader's counts (skipped units and why)."""
    done_file = work / "anonymize.done"
    if done_file.exists():
        return json.loads(done_file.read_text(encoding="utf-8"))
    inp = cfg["input"]
    problems = Problems(strict=bool(inp.get("strict")))
    policy = MetadataPolicy.from_config(cfg)
    escaper = InputPlaceholders.from_config(cfg)
    limit = SegmentLimit.from_config(cfg)
    pairs_iter = escaper.apply(OpaqueIds(policy.ids).apply(limit.apply(read_corpus(
        input_path, cfg["src"], cfg["tgt"], problems, inp.get("format"), inp.get("src_col"), inp.get("tgt_col"),
        int(inp.get("document_pairs", DOCUMENT_PAIRS) or 0)), problems)))
    size = int(cfg.get("chunk_size", 2000))
    bar = tqdm(desc="anonymize", unit=" pairs", disable=quiet, mininterval=0.5)
    corpus_scope = anonymizer.scope == "corpus"
    global _WORKER
    _WORKER = anonymizer
    n_chunks = 0
    # a resumed corpus-scope run continues the numbering where the last saved chunk left it
    if corpus_scope:
        saved = sorted(work.glob("anon-*.pkl"))
        if saved:
            anonymizer.numberer = _load(saved[-1])["numberer"]

    def todo() -> Iterator[tuple[int, list[list[SegmentPair]], Path]]:
        nonlocal n_chunks
        for k, batch in chunks(documents(pairs_iter), size):
            n_chunks = k + 1
            if (work / f"anon-{k:06d}.pkl").exists():
                bar.update(sum(len(d) for d in batch))
                continue
            yield k, batch, work

    try:
        with in_order(_anonymize_batch, todo(), 1 if corpus_scope else workers, _init_worker, (cfg,),
                      _reset_worker) as results:
            for _k, n in results:
                bar.update(n)
    finally:
        bar.close()
    counts = {"chunks": n_chunks, "skipped": problems.skipped, "reasons": dict(problems.reasons),
              "examples": problems.examples, "input_placeholders": escaper.counts(),
              "long_segments": limit.counts(),
              "files": problems.files}  # private (paths): for the key store, never the report
    _write_json(done_file, counts)
    return counts


def _corpus_forms(anonymizer: Anonymizer, chunks_of_items: Iterable[list[Anonymized]]) -> CorpusForms:
    forms = CorpusForms(anonymizer._propagation_forms)
    for items in chunks_of_items:
        for _, group in groupby(items, key=lambda it: anonymizer.scope_key(it[0])):
            forms.add_document([m for _, ms, _, _ in group for m in ms])
    return forms


class _CorpusNumbers:
    """For ``corpus`` scope: the corpus-wide numbers of forms and the next free number."""

    def __init__(self, chunks_of_items: Iterable[list[Anonymized]]) -> None:
        self.numbers: dict[str, int] = {}
        self.next = 1
        for items in chunks_of_items:
            for _, ms, _, nxt in items:
                self.next = max(self.next, nxt)
                self.numbers.update((form_key(m.text), m.entity) for m in ms)


def _make_consistent(items: list[Anonymized], forms: CorpusForms, anonymizer: Anonymizer,
                     corpus: _CorpusNumbers | None) -> tuple[list[Anonymized], int]:
    """Items with the corpus's entity forms masked wherever the recognizers missed them, and how many
    mentions that added (numbered within each scope like the others)."""
    new_items: list[Anonymized] = []
    added = 0
    for scope, group in groupby(items, key=lambda it: anonymizer.scope_key(it[0])):
        group = list(group)
        if corpus is not None:
            numbers, nxt = corpus.numbers, corpus.next
        else:
            numbers = {form_key(m.text): m.entity for _, ms, _, _ in group for m in ms}
            nxt = max([it[3] for it in group] + [v + 1 for v in numbers.values()] + [1])
        out = []
        for p, ms, rep, _ in group:
            extra, nxt = forms.mentions(p.src, ms, numbers, nxt)
            if extra:
                ms = sorted(ms + extra, key=lambda m: m.start)
                rep = apply_mentions(p.src, ms, anonymizer.ops, scope)
                added += len(extra)
            out.append((p, ms, rep))
        if corpus is not None:
            corpus.next = nxt
        new_items += [(p, ms, rep, nxt) for p, ms, rep in out]
    return new_items, added


_FORMS: CorpusForms | None = None
_CORPUS: _CorpusNumbers | None = None


def _stage_consistency(cfg: dict[str, Any], work: Path, n_chunks: int, anonymizer: Anonymizer, workers: int,
                       quiet: bool) -> tuple[int, list[int]]:
    """Mask, in every source segment, the entity forms found anywhere in the corpus (see
    :mod:`paranon.anonymize.consistency`), and write each chunk's alignment input (its tokens): this is
    the last stage that changes the source text. Chunks in parallel unless numbering is corpus-wide.
    Returns how many mentions it added and the chunk sizes."""
    global _WORKER, _FORMS, _CORPUS
    _FORMS = None  # a resumed run past this stage loads its forms from forms.pkl (never an earlier run's)
    done_file = work / "consistency.done"
    if done_file.exists():
        d = json.loads(done_file.read_text(encoding="utf-8"))
        return d["added"], d["sizes"]
    _WORKER, _FORMS, _CORPUS = anonymizer, None, None
    if cfg["anonymize"].get("corpus_consistency", True):
        _FORMS = CorpusForms(anonymizer._propagation_forms)
        for k in range(n_chunks):  # the forms each chunk found, saved by the anonymize stage
            _FORMS.merge(_load(work / f"forms-{k:06d}.pkl"))
        _dump(work / "forms.pkl", _FORMS.state())
        if anonymizer.scope == "corpus":
            _CORPUS = _CorpusNumbers(items for _, items in _chunk_items(work, n_chunks))
    sequential = anonymizer.scope == "corpus" or workers <= 1
    jobs = [(k, work) for k in range(n_chunks) if not (work / f"cons-{k:06d}.json").exists()]
    bar = tqdm(desc="consistency", unit=" chunks", total=n_chunks, initial=n_chunks - len(jobs), disable=quiet)
    try:
        with in_order(_consistent_chunk, jobs, 1 if sequential else workers, _init_consistency,
                      (cfg, work), _reset_worker) as results:
            for k, size, added in results:
                _write_json(work / f"cons-{k:06d}.json", {"size": size, "added": added})
                bar.update(1)
    finally:
        bar.close()
    done = [json.loads((work / f"cons-{k:06d}.json").read_text(encoding="utf-8")) for k in range(n_chunks)]
    added, sizes = sum(d["added"] for d in done), [d["size"] for d in done]
    _write_json(done_file, {"added": added, "sizes": sizes})
    return added, sizes


def _chunk_items(work: Path, n_chunks: int) -> Iterator[tuple[int, list[Anonymized]]]:
    for k in range(n_chunks):
        yield k, _load(work / f"anon-{k:06d}.pkl")["items"]


def _init_consistency(cfg: dict, work: Path) -> None:
    """A spawned worker's anonymizer and forms (a forked one has its parent's)."""
    global _FORMS
    _init_worker(cfg)
    if _FORMS is None and (work / "forms.pkl").exists():
        _FORMS = CorpusForms.from_state(_load(work / "forms.pkl"))


def _consistent_chunk(job: tuple[int, Path]) -> tuple[int, int, int]:
    """One chunk made consistent with the corpus forms (rewritten when that added mentions) and its
    tokens written for the aligner; returns (chunk, pairs, mentions added). Rerunning it adds nothing."""
    k, work = job
    assert _WORKER is not None
    payload = _load(work / f"anon-{k:06d}.pkl")
    items, added = payload["items"], 0
    if _FORMS is not None:
        items, added = _make_consistent(items, _FORMS, _WORKER, _CORPUS)
        if added:
            payload["items"] = items
            _dump(work / f"anon-{k:06d}.pkl", payload)
    for side, texts in (("src", (rep.text for _, _, rep, _ in items)), ("tgt", (p.tgt for p, _, _, _ in items))):
        with atomic_write(work / f"tok-{k:06d}.{side}", perm=0o600) as fh:  # the target's originals
            fh.writelines(" ".join(token_words(text)) + "\n" for text in texts)
    return k, len(items), added


def _stage_align(cfg: dict[str, Any], work: Path, n_chunks: int, quiet: bool) -> dict[str, Any]:
    """Word alignment of (anonymized source, original target) tokens over the whole corpus, once. An
    aligner with directions (eflomal) leaves ``links.fwd`` and ``links.rev``, symmetrized pair by pair in
    the transfer workers; any other writes ``links.pharaoh``. Returns the done record."""
    done_file = work / "align.done"
    if done_file.exists():
        return json.loads(done_file.read_text(encoding="utf-8"))
    aligner, why = make_aligner(cfg)
    log.info("aligner: %s", why)
    src_tok, tgt_tok = work / "tokens.src", work / "tokens.tgt"
    for side, path in (("src", src_tok), ("tgt", tgt_tok)):
        with open(path, "w", encoding="utf-8") as out:
            for k in range(n_chunks):
                with open(work / f"tok-{k:06d}.{side}", encoding="utf-8") as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
    if not quiet:
        print(f"aligning with {why} ...", file=sys.stderr)
    done: dict[str, Any] = {}
    if isinstance(aligner, EflomalAligner):
        aligner.align_directions(src_tok, tgt_tok, work / "links.fwd.part", work / "links.rev.part")
        os.replace(work / "links.fwd.part", work / "links.fwd")
        os.replace(work / "links.rev.part", work / "links.rev")
        done["symmetrization"] = aligner.symmetrization
    else:
        tmp = work / "links.pharaoh.part"
        aligner.align_files(src_tok, tgt_tok, tmp)
        os.replace(tmp, work / "links.pharaoh")
    if not aligner.reproducible:
        why += " [unseeded: links may differ between runs]"
    done["aligner"] = why
    _write_json(done_file, done)
    return done


class _PartWriters:
    """The six output formats for one chunk, written to ``.work/out-K.*``."""

    def __init__(self, work: Path, k: int, src_lang: str, tgt_lang: str) -> None:
        self.paths = {ext: work / f"out-{k:06d}.{ext}.part" for ext in PARTS}
        self.fh = {ext: open(p, "w", encoding="utf-8", newline="") for ext, p in self.paths.items()}
        self.jw = JsonlWriter(self.fh["jsonl"])
        self.xw = TmxWriter.body_only(self.fh["tmx"], src_lang, tgt_lang)
        self.vw = TsvWriter(self.fh["tsv"], src_lang, tgt_lang, header=False)

    def write(self, ap: AnonymizedPair) -> None:
        self.jw.write(ap)
        self.xw.write(ap)
        self.vw.write(ap)
        self.fh["src"].write(ap.src.replace("\n", " ") + "\n")
        self.fh["tgt"].write(ap.tgt.replace("\n", " ") + "\n")
        self.fh["pharaoh"].write(pharaoh(ap.alignment) + "\n")

    def commit(self) -> None:
        for ext, fh in self.fh.items():
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
            os.replace(self.paths[ext], self.paths[ext].with_suffix(""))


_FINISHER: Finisher | None = None


TransferJob = tuple[int, Path, list[str] | list[tuple[str, str]], str | None, str, str, dict[str, int]]


def _chunk_links(work: Path, k: int, lines: list[str] | list[tuple[str, str]], how: str | None) -> list[Links]:
    """A chunk's links: its Pharaoh lines, or (``how`` given) its forward and reverse lines symmetrized,
    with the sentence lengths from the chunk's alignment tokens."""
    if how is None:
        return [sorted(set(parse_pharaoh(line))) for line in lines]  # type: ignore[arg-type]
    with open(work / f"tok-{k:06d}.src", encoding="utf-8") as fs, \
            open(work / f"tok-{k:06d}.tgt", encoding="utf-8") as ft:
        return [symmetrize_lines(len(s.split()), len(t.split()), f, r, how)
                for s, t, (f, r) in zip(fs, ft, lines, strict=True)]


def _finisher(work: Path, src_lang: str, tgt_lang: str) -> Finisher:
    """This process's finisher, with the corpus forms (and, once pass 1 is done, the target forms)."""
    global _FINISHER
    if _FINISHER is None:
        assert _WORKER is not None
        _FINISHER = Finisher(_WORKER, src_lang, tgt_lang)
        if _FORMS is not None:  # the parent's, from the consistency stage
            _FINISHER.forms = _FORMS
        elif (work / "forms.pkl").exists():
            _FINISHER.forms = CorpusForms.from_state(_load(work / "forms.pkl"))
    return _FINISHER


def _transfer_chunk(job: TransferJob) -> tuple[int, int, TargetFound, dict[str, int]]:
    """Pass 1 of one chunk: its transfer results saved to ``tr-K.pkl`` (which marks the pass done), its target
    forms and the numbering state back to the caller."""
    k, work, lines, how, src_lang, tgt_lang, next_by_scope = job
    fin = _finisher(work, src_lang, tgt_lang)
    fin.next_by_scope = dict(next_by_scope)
    items = _load(work / f"anon-{k:06d}.pkl")["items"]
    links = _chunk_links(work, k, lines, how)
    done, found = fin.transfer_chunk(items, links)
    _dump(work / f"tr-{k:06d}.pkl", {"done": done, "links": links, "found": found,
                                      "next_by_scope": fin.next_by_scope})
    return k, len(items), found, fin.next_by_scope


_TARGETS: tuple[CorpusForms | None, dict[str, set[str]], set[str]] | None = None


def _write_chunk(job: tuple[int, Path, str, str, dict[str, int] | None]) -> tuple[int, int, list, dict, dict, list]:
    """Pass 2 of one chunk: the corpus's target forms masked, then the chunk written into its part files;
    the key-store rows go back to the caller, which commits them with the chunk (the part files alone do not
    make a chunk done)."""
    global _TARGETS
    k, work, src_lang, tgt_lang, carried = job
    fin = _finisher(work, src_lang, tgt_lang)
    if _TARGETS is None:
        _TARGETS = _load(work / "targets.pkl")
    targets, sources, free = _TARGETS
    saved = _load(work / f"tr-{k:06d}.pkl")
    fin.next_by_scope = dict(saved["next_by_scope"] if carried is None else carried)
    items = _load(work / f"anon-{k:06d}.pkl")["items"]
    writers = _PartWriters(work, k, src_lang, tgt_lang)
    stats = Stats()
    rows: list[tuple] = []
    n = 0
    for r in fin.finish_transferred(items, saved["links"], saved["done"], targets, sources, free):
        writers.write(r.anonymized)
        rows += KeyStore.rows(r.anonymized, r.scope, k)
        n += 1
        stats.add(r)
    writers.commit()
    return k, n, rows, stats.to_json(), fin.next_by_scope, KeyStore.id_rows([it[0] for it in items], k)


def _stage_transfer(cfg: dict[str, Any], work: Path, sizes: list[int], anonymizer: Anonymizer, workers: int,
                    quiet: bool, symmetrization: str | None = None) -> Stats:
    """Transfer in two passes over the chunks, in parallel unless numbering is corpus-wide (then new numbers
    continue one corpus-wide count, chunk after chunk). Pass 1 transfers and collects the target forms;
    pass 2 masks the corpus's target forms where they still show and writes. A document never spans
    chunks, so with ``document`` or ``segment`` scope every chunk starts afresh and the output is the same
    for any N."""
    global _WORKER, _FINISHER, _TARGETS, _FORMS
    _WORKER, _FINISHER, _TARGETS = anonymizer, None, None
    # The finisher and its corpus forms (the consistency stage's) are set up here, once, before the pool
    # forks: its workers share their pages instead of each loading a copy of the forms. Frozen, so that no
    # worker's garbage collector writes to (and so copies) those pages.
    _finisher(work, cfg["src"], cfg["tgt"])
    gc.freeze()
    sequential = anonymizer.scope == "corpus" or workers <= 1
    n_workers = 1 if sequential else workers
    founds: list[TargetFound] = []
    carried: dict[str, int] = {}
    bar = tqdm(desc="transfer", unit=" pairs", disable=quiet, mininterval=0.5)
    with ExitStack() as files:
        if symmetrization:
            fwd, rev = (files.enter_context(open(work / f"links.{d}", encoding="utf-8")) for d in ("fwd", "rev"))
        else:
            fl = files.enter_context(open(work / "links.pharaoh", encoding="utf-8"))

        def jobs() -> Iterator[TransferJob]:
            nonlocal carried
            for k, n in enumerate(sizes):
                lines: list[str] | list[tuple[str, str]] = \
                    [(fwd.readline(), rev.readline()) for _ in range(n)] if symmetrization \
                    else [fl.readline() for _ in range(n)]
                saved_path = work / f"tr-{k:06d}.pkl"
                if saved_path.exists():  # resumed: pass 1 of this chunk is done
                    saved = _load(saved_path)
                    founds.append(saved["found"])
                    carried = saved["next_by_scope"]
                    bar.update(n)
                    continue
                yield k, work, lines, symmetrization, cfg["src"], cfg["tgt"], carried if sequential else {}

        with in_order(_transfer_chunk, jobs(), n_workers, _init_worker, (cfg,), _reset_worker) as results:
            for _k, n_pairs, found, next_by_scope in results:
                founds.append(found)
                if sequential:
                    carried = next_by_scope
                bar.update(n_pairs)
    bar.close()
    # the corpus's target forms belong to corpus consistency (anonymize.corpus_consistency)
    # (made and dropped here, not kept for the pass-2 workers to share: kept, it stayed in the parent
    # through the index stage, which then weighed more than the workers' own copies had)
    _dump(work / "targets.pkl", target_forms_of(founds) if (work / "forms.pkl").exists() else (None, {}, set()))
    founds.clear()

    stats = Stats()
    keys = KeyStore(work / "keys.sqlite")
    bar = tqdm(desc="write", unit=" pairs", disable=quiet, mininterval=0.5)
    try:
        def write_jobs() -> Iterator[tuple[int, Path, str, str, dict[str, int] | None]]:
            nonlocal carried
            for k, n in enumerate(sizes):
                done = work / f"out-{k:06d}.json"
                if done.exists():
                    saved = json.loads(done.read_text(encoding="utf-8"))
                    stats.merge(saved["stats"])
                    carried = saved["next_by_scope"]
                    bar.update(n)
                    continue
                yield k, work, cfg["src"], cfg["tgt"], carried if anonymizer.scope == "corpus" else None

        with in_order(_write_chunk, write_jobs(), n_workers, _init_worker, (cfg,), _reset_worker) as results:
            for k, n_pairs, rows, chunk_stats, next_by_scope, id_rows in results:
                keys.begin_chunk(k)
                keys.add_rows(rows)
                keys.add_id_rows(id_rows)
                keys.commit()
                if anonymizer.scope == "corpus":
                    carried = next_by_scope
                _write_json(work / f"out-{k:06d}.json", {"stats": chunk_stats, "next_by_scope": next_by_scope})
                stats.merge(chunk_stats)
                bar.update(n_pairs)
    finally:
        keys.close()
        bar.close()
        _FINISHER, _TARGETS, _FORMS = None, None, None  # the parent needs none of them again
    return stats


def _assemble(outdir: Path, work: Path, n_chunks: int, cfg: dict[str, Any]) -> None:
    """Concatenate the parts into the final files, each renamed into place when complete."""
    src_lang, tgt_lang = cfg["src"], cfg["tgt"]
    names = {"jsonl": "corpus.jsonl", "tmx": "corpus.tmx", "src": f"corpus.{src_lang}",
             "tgt": f"corpus.{tgt_lang}", "tsv": "corpus.tsv", "pharaoh": "alignments.pharaoh"}
    for ext, name in names.items():
        with atomic_write(outdir / name) as out:
            if ext == "tmx":
                TmxWriter.write_header(out, src_lang, tgt_lang)
            elif ext == "tsv":
                TsvWriter.write_header(out, src_lang, tgt_lang)
            for k in range(n_chunks):
                with open(work / f"out-{k:06d}.{ext}", encoding="utf-8", newline="") as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
            if ext == "tmx":
                TmxWriter.write_footer(out)
    final = outdir / ".keys.sqlite.part"
    shutil.copyfile(work / "keys.sqlite", final)
    final.chmod(0o600)
    KeyStore.finalize(final)
    os.replace(final, outdir / "keys.sqlite")


def _entity_rows(keys_path: Path, limit: int = 20000) -> tuple[int, list[dict[str, Any]]]:
    """Entities for the report: numbers, categories, counts and rules; never the originals."""
    db = sqlite3.connect(str(keys_path))
    try:
        total = db.execute("SELECT COUNT(*) FROM (SELECT DISTINCT scope, number FROM mentions "
                           "WHERE side = 'src')").fetchone()[0]
        rows: dict[tuple[str, int], dict[str, Any]] = {}
        for scope, number, cat, sub, rec, rule, n in db.execute(
                "SELECT scope, number, category, subtype, recognizer, rule, COUNT(*) FROM mentions "
                "WHERE side = 'src' AND (scope, number) IN (SELECT DISTINCT scope, number FROM mentions "
                "WHERE side = 'src' ORDER BY rowid LIMIT ?) GROUP BY scope, number, recognizer, rule "
                "ORDER BY MIN(rowid)", (limit,)):
            e = rows.setdefault((scope, number), {"scope": scope, "number": number,
                                                  "category": cat + (f"_{sub}" if sub else ""),
                                                  "mentions": 0, "rules": {}})
            e["mentions"] += n
            e["rules"][f"{rec}:{rule}"] = n
        return total, list(rows.values())
    finally:
        db.close()


def _input_aliases(files: dict[str, str]) -> str:
    aliases = sorted(files.values())
    if len(aliases) <= 3:
        return ", ".join(aliases)
    return f"{len(aliases)} files ({aliases[0]} to {aliases[-1]})"


def run(input_path: str | Path, outdir: str | Path, cfg: dict[str, Any], quiet: bool = False,
        restart: bool = False) -> dict[str, Any]:
    outdir = Path(outdir).absolute()  # jobs name their chunk files by path, for Dask workers too
    if not Path(input_path).exists() and cfg["input"].get("format") != "moses" \
            and not Path(f"{input_path}.{cfg['src']}").exists():
        raise InputError(f"{input_path}: no such file or folder")
    outdir.mkdir(parents=True, exist_ok=True)
    with OutdirLock(outdir):  # one run per OUTDIR; a killed run's lock is taken over
        removed = clean_leftovers(outdir)
        if removed:
            log.info("removed %d folder(s) or file(s) a killed run left", len(removed))
        return _run_locked(input_path, outdir, cfg, quiet, restart)


def _run_locked(input_path: str | Path, outdir: Path, cfg: dict[str, Any], quiet: bool,
                restart: bool) -> dict[str, Any]:
    timings: dict[str, float] = {}
    # every file the run writes in .work (originals) is owner-only; the public outputs set their own mode
    umask = os.umask(0o077)
    try:
        return _stages(input_path, outdir, cfg, quiet, restart, timings, umask)
    finally:
        os.umask(umask)


def _stages(input_path: str | Path, outdir: Path, cfg: dict[str, Any], quiet: bool, restart: bool,
            timings: dict[str, float], umask: int) -> dict[str, Any]:
    src_lang, tgt_lang = cfg["src"], cfg["tgt"]
    anonymizer = Anonymizer(cfg)
    _quiet_gc()
    workers = int(cfg.get("workers") or 0) or os.cpu_count() or 1
    if anonymizer.scope == "corpus":
        workers = 1  # corpus-wide numbering needs one numberer
    work, resumed = _open_work(outdir, _fingerprint(input_path, cfg), restart)
    if resumed:
        log.info("resuming from the checkpoints in %s", work)

    scheduler = cfg.get("scheduler") or None
    with use_scheduler(scheduler, workers, work / "dask") as slots:
        if slots and anonymizer.scope != "corpus":  # corpus scope stays in this process (workers is 1)
            workers = slots
        t0 = time.perf_counter()
        counts = _stage_anonymize(input_path, cfg, work, anonymizer, workers, quiet)
        timings["read_anonymize"] = time.perf_counter() - t0
        n_chunks = counts["chunks"]
        if n_chunks == 0:  # nothing to write: an error, not an empty corpus
            shutil.rmtree(work, ignore_errors=True)
            why_none = "; ".join(f"{k}: {v}" for k, v in counts["reasons"].items()) or "the input holds no unit"
            first = f" (first: {counts['examples'][0]})" if counts["examples"] else ""
            raise InputError(f"{input_path}: no pair to write ({counts['skipped']} unit(s) skipped; {why_none}){first}")

        t0 = time.perf_counter()
        consistency_masks, sizes = _stage_consistency(cfg, work, n_chunks, anonymizer, workers, quiet)
        timings["consistency"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        aligned = _stage_align(cfg, work, n_chunks, quiet)
        why = aligned["aligner"]
        timings["align"] = time.perf_counter() - t0

        t0 = time.perf_counter()
        stats = _stage_transfer(cfg, work, sizes, anonymizer, workers, quiet, aligned.get("symmetrization"))
        timings["transfer"] = time.perf_counter() - t0

    KeyStore.set_files(work / "keys.sqlite", counts.get("files", {}), input_path)
    t0 = time.perf_counter()
    _assemble(outdir, work, n_chunks, cfg)
    timings["write"] = time.perf_counter() - t0
    os.umask(umask)  # the index is public: readable as the user's umask makes it

    if cfg.get("index", {}).get("enabled", True):
        from .search_portal.indexer import build_index

        t0 = time.perf_counter()
        build_index(outdir, quiet=quiet, backend=cfg.get("index", {}).get("backend", "tantivy"))
        timings["index"] = time.perf_counter() - t0

    n_entities, entity_rows = _entity_rows(outdir / "keys.sqlite")
    report = {
        # the input by its files' aliases, never a path (file and folder names can name people)
        "input": _input_aliases(counts.get("files", {})), "src_lang": src_lang, "tgt_lang": tgt_lang, "aligner": why,
        "units": {"read": stats.written + counts["skipped"], "written": stats.written, "skipped": counts["skipped"],
                  "skipped_by_reason": counts["reasons"], "skipped_examples": counts["examples"]},
        "input_placeholders": counts.get("input_placeholders", {}), "ids": cfg.get("ids", "opaque"),
        "long_segments": counts.get("long_segments", {}),
        "mentions": {"src": dict(stats.src), "tgt": dict(stats.tgt)},
        "entities": n_entities,
        "rules": dict(stats.rules.most_common()),
        "consistency_masks": {"src": consistency_masks, "tgt": stats.consistency_tgt},
        "transfer": {"steps": dict(stats.steps), "guard_masks": stats.guard_masks,
                     "target_only": stats.target_only, "untransferred": dict(stats.untransferred),
                     "untransferred_units": stats.untransferred_units},
        "scope": anonymizer.scope, "workers": workers, "scheduler": scheduler, "chunks": n_chunks,
        "resumed": resumed,
        "timings_s": {k: round(v, 3) for k, v in timings.items()},
    }
    publish_report(outdir, report, entity_rows, cfg)  # report.json/.html, then the leak audit on top of them
    shutil.rmtree(work)  # the checkpoints hold originals: gone once the outputs are complete
    return report
