"""The tantivy index brought up to date after ``paranon apply``: only what changed is indexed again.

The pairs to index again are those whose line of ``corpus.jsonl`` changed, and those whose duplicate group got
or lost them as its first pair (their ``lead`` and ``rank`` fast fields, groups.py). Each index part (a run of
corpus numbers, ``tantivy/part-K``) holding none of them is kept as it is (its segment files hard-linked into
the new folder: tantivy never writes a segment file again once made; ``meta.json`` and ``.managed.json``,
which it replaces by a rename, copied); a part holding one is indexed again from its lines, each line that
did not change from the fields the part's last build kept (``index_prep``: only the changed lines are parsed
and folded again). Deleting the
changed pairs by id and adding them again would be less work, but a tantivy segment keeps a deleted
document's stored record and terms until a merge, which tantivy-py (0.27) cannot ask for: the text a decision
masked would stay in the index's files (the audit finds such a term in the dictionary).

The side files (``translations.json``, ``stems.json``, ``stats.json``, ``words/``) are written from the counts
the last build or update left (``tantivy_index.SideCounts``), the changed pairs' old counts taken out (their
records as the live index stores them) and their new counts put in: the pairs that did not change are never
counted again, and only the terms whose translation counts changed are tallied again.

The counts and a digest of each line of ``corpus.jsonl`` are kept in ``STATE_FILE``, in the run's private
checkpoint. The new folder is published as a build is (``publish.swap_in``): a reader never sees a
half-updated index. A Whoosh index, a state of another index folder or a corpus with another number of
pairs: the index is built afresh (``indexer.build_index``).
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import time
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..collector import paused_gc
from .backends import BACKEND_FILE, backend_of
from .groups import GROUPS_FILE, write_groups
from .index_prep import line_digest, prep_folder, prep_path
from .indexer import StatsBuilder, _pool, build_index, folded_analyzer
from .publish import corpus_head, new_folder, swap_in
from .tantivy_index import (
    PARTS_DIR,
    PARTS_FILE,
    SideCounts,
    TantivyIndex,
    _part,
    folded_words,
)
from .translations import TABLE_FILE, TableBuilder, pair_tokens

STATE_FILE = "index-state.pkl"  # in the run's checkpoint (private, never served)
COPIED = {"meta.json", ".managed.json"}  # tantivy replaces these: copied, not linked
LOCKS = {".tantivy-writer.lock", ".tantivy-meta.lock"}


@dataclass
class IndexState:
    """What the index in ``folder`` was made from: a digest of each line of ``corpus.jsonl``, and the counts."""

    folder: str
    digests: bytes
    side: SideCounts


def corpus_lines(corpus: Path) -> list[bytes]:
    lines = corpus.read_bytes().split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def line_digests(lines: list[bytes]) -> bytes:
    return b"".join(map(line_digest, lines))


def save_state(path: Path, target: Path, corpus: Path, side: SideCounts | None,
               digests: bytes | None = None) -> None:
    """Keep what an update of the index in ``target`` needs in ``path`` (none for Whoosh: removed);
    ``digests``: the corpus's ``line_digests`` when known."""
    path = Path(path)
    if side is None:
        path.unlink(missing_ok=True)
        return
    state = IndexState(target.name, digests if digests is not None else line_digests(corpus_lines(corpus)), side)
    part = path.with_name(path.name + ".part")
    with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as fh:
        pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(part, path)


def update_index(outdir: str | Path, state: Path, quiet: bool = True, backend: str = "tantivy") -> Path:
    """``OUTDIR/index`` brought up to ``corpus.jsonl`` in place when it can be (above), else built afresh;
    returns the index folder."""
    outdir = Path(outdir)
    got = _update(outdir, Path(state), backend)
    return got if got is not None else build_index(outdir, quiet=quiet, backend=backend, state=state)


def _update(outdir: Path, state_path: Path, backend: str) -> Path | None:
    link = outdir / "index"
    if backend != "tantivy" or not state_path.exists() or not link.is_symlink():
        return None
    old = link.resolve()
    with paused_gc():  # a few hundred thousand counts and table rows loaded: no cycle to look for
        with open(state_path, "rb") as fh:
            state: IndexState = pickle.load(fh)
        if state.folder != old.name or backend_of(old) != "tantivy":
            return None
        return _update_in(outdir, old, state, state_path)


def _update_in(outdir: Path, old: Path, state: IndexState, state_path: Path) -> Path | None:
    t0 = time.perf_counter()
    corpus, first = corpus_head(outdir)
    lines = corpus_lines(corpus)
    digests = line_digests(lines)
    if len(digests) != len(state.digests):
        return None
    changed = np.nonzero((np.frombuffer(digests, np.uint8).reshape(-1, 16)
                          != np.frombuffer(state.digests, np.uint8).reshape(-1, 16)).any(axis=1))[0].tolist()
    target = new_folder(outdir)
    try:
        leads = write_groups(corpus, target)
        old_leads = np.fromfile(old / GROUPS_FILE, dtype=np.int32)
        numbers = np.arange(len(leads))
        moved = np.nonzero((leads == numbers) != (old_leads == numbers))[0].tolist()  # a group's first pair changed
        spans = json.loads((old / PARTS_DIR / PARTS_FILE).read_text(encoding="utf-8"))
        again = sorted(set(changed) | set(moved))
        redo = [k for k, (_, a, b) in enumerate(spans) if bisect_left(again, b) > bisect_left(again, a)]
        _keep_parts(old, target, spans, redo)
        _rebuild_parts(target, corpus, lines, spans, redo, prep_folder(state_path))
        terms = _recount(old, lines, changed, state.side)
        state.side.write(target, {"src": first.get("src_lang", "pt"), "tgt": first.get("tgt_lang", "en")},
                         json.loads((old / TABLE_FILE).read_text(encoding="utf-8")), terms)
        (target / BACKEND_FILE).write_text(json.dumps({
            "backend": "tantivy", "build_s": {"update": round(time.perf_counter() - t0, 1)},
            "updated_pairs": len(again), "parts_rebuilt": len(redo), "parts": len(spans)}), encoding="utf-8")
        save_state(state_path, target, corpus, state.side, digests)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)  # the live index stays as it was
        raise
    swap_in(outdir, target)
    return target


def _keep_parts(old: Path, target: Path, spans: list, redo: list[int]) -> None:
    """The live index's parts that no changed pair falls in, hard-linked into ``target`` (tantivy's own lists
    copied), and ``parts.json``."""
    (target / PARTS_DIR).mkdir()
    shutil.copy2(old / PARTS_DIR / PARTS_FILE, target / PARTS_DIR / PARTS_FILE)
    for k, (name, _, _) in enumerate(spans):
        if k in redo:
            continue
        for src in sorted((old / PARTS_DIR / name).rglob("*")):
            dst = target / src.relative_to(old)
            if src.is_dir():
                dst.mkdir(parents=True, exist_ok=True)
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.name in COPIED:
                shutil.copy2(src, dst)
            elif src.name not in LOCKS:
                os.link(src, dst)


def _rebuild_parts(target: Path, corpus: Path, lines: list[bytes], spans: list, redo: list[int],
                   prep: Path) -> None:
    """The parts ``redo`` indexed again from their lines, in parallel (``tantivy_index._part``, without its
    counts: those come from ``_recount``), each line that did not change from the fields its part's last build
    kept (``index_prep``, in ``prep``)."""
    starts = np.concatenate([[0], np.cumsum([len(line) + 1 for line in lines])]).tolist()
    jobs = []
    for k in redo:
        number = int(spans[k][0].rsplit("-", 1)[1])
        jobs.append((str(target), str(corpus), number, starts[spans[k][1]], starts[spans[k][2]], spans[k][1], False,
                     prep_path(prep, number)))
    with _pool(min(len(jobs), os.cpu_count() or 1)) as pool:
        list(pool.imap(_part, jobs) if pool is not None else map(_part, jobs))


def _recount(old: Path, lines: list[bytes], changed: list[int], side: SideCounts) -> dict[str, set[str]]:
    """``side`` with the ``changed`` pairs' old counts taken out (their records as the live index ``old``
    stores them) and their new ones put in. Returns the terms whose translation counts changed, per side."""
    view = TantivyIndex(old).view()
    delta = Delta.empty()
    folded: dict[str, str] = {}
    for n in changed:
        _count(delta, 1, view.record(n)[0], folded)
        _count(delta, 0, json.loads(lines[n]), folded)
    delta.apply(side)
    return {s: {term for t in (delta.plus, delta.minus) for term, _ in t.table[s]} for s in ("src", "tgt")}


@dataclass
class Delta:
    """The counts of the pairs taken out (``minus``) and of their new records (``plus``)."""

    plus: SideCounts
    minus: SideCounts
    tables: tuple[TableBuilder, TableBuilder]

    @classmethod
    def empty(cls) -> Delta:
        analyzer = folded_analyzer()
        tables = tuple(TableBuilder(lambda word: [t.text for t in analyzer(word)]) for _ in range(2))
        sides = [SideCounts(t.counts, StatsBuilder(), {"src": Counter(), "tgt": Counter()}) for t in tables]
        return cls(sides[0], sides[1], tables)

    def apply(self, side: SideCounts) -> None:
        """``side`` with the pairs taken out and put in again."""
        for s in ("src", "tgt"):
            _shift(side.table[s], self.plus.table[s], self.minus.table[s])
            _shift(side.vocab[s], self.plus.vocab[s], self.minus.vocab[s])
        st, plus, minus = side.stats, self.plus.stats, self.minus.stats
        st.pairs += plus.pairs - minus.pairs
        for s in st.tokens:
            st.tokens[s] += plus.tokens[s] - minus.tokens[s]
        for name in ("mentions", "documents", "words"):
            _shift(getattr(st, name), getattr(plus, name), getattr(minus, name))


def _shift(counts: Counter, plus: Counter, minus: Counter) -> None:
    counts.update(plus)
    counts.subtract(minus)
    for key in minus:  # only a key that lost counts can fall to none
        if counts[key] <= 0:
            del counts[key]


def _count(delta: Delta, which: int, rec: dict, folded: dict[str, str]) -> None:
    """One record's counts into the delta's ``plus`` (0) or ``minus`` (1)."""
    toks, links = pair_tokens(rec)
    sc = (delta.plus, delta.minus)[which]
    delta.tables[which].add(rec, toks, links)
    sc.stats.add(rec, toks)
    for s in ("src", "tgt"):
        sc.vocab[s].update(folded_words(rec[s], folded))
