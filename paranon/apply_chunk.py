"""One chunk's documents done again for ``paranon apply`` (:mod:`paranon.apply`), spliced into the chunk's
checkpoint: made consistent and transferred (``cons-K``, ``tr-K``: their pass-1 results, links and target
forms), or written (their records in the part files ``out-K.*``, their key-store rows, their report counts in
``out-K.json``). The chunk's other documents keep what the run made for them: with ``document`` or
``segment`` numbering a document's result depends on the document and the corpus's forms only.
"""

from __future__ import annotations

from bisect import bisect_right
from pathlib import Path
from typing import Any

import regex

from .align.finish import Finisher, TargetForms
from .anonymize.anonymized import Anonymized
from .anonymize.corpus import make_consistent
from .anonymize.engine import Anonymizer, Replaced
from .anonymize.keystore import KeyStore
from .corpora.formats import atomic_write
from .outputs import PARTS, PartWriters
from .stage_anonymize import AnonChunk
from .stage_common import documents
from .stage_consistency import consistent_items
from .stage_transfer import TransferredChunk
from .stats import Stats
from .text import tokenize
from .workdir import WorkDir

TU_START = regex.compile(r"(?m)^(?=<tu )")  # a TMX part file's units start at the line's start


class CachedWork(WorkDir):
    """The checkpoint folder with what ``apply`` loaded or saved kept in memory (it reads a chunk's files in
    several steps; a chunk's pickles weigh a few MB). What a step changes in a loaded object it saves, without
    waiting for the disk: ``apply`` syncs every file it changed once its steps are done (``sync_since``; an
    apply that stops before leaves no checkpoint to resume from, see ``WorkDir.reopen``)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.cache: dict[str, Any] = {}

    def load(self, name: str) -> Any:
        if name not in self.cache:
            self.cache[name] = super().load(name)
        return self.cache[name]

    def dump(self, name: str, obj: Any, sync: bool = False) -> None:
        super().dump(name, obj, sync)
        self.cache[name] = obj

    def drop(self, name: str) -> None:
        super().drop(name)
        self.cache.pop(name, None)


def by_document(items: list[Anonymized]) -> list[list[Anonymized]]:
    """Consecutive items of the same document (as the stages group them: ``stage_common.documents``)."""
    return list(documents(items, lambda it: it.pair.doc))


def cut(flat: list, like: list[list]) -> list[list]:
    """``flat`` (one entry a pair) cut into documents as ``like`` is."""
    out, i = [], 0
    for d in like:
        out.append(flat[i:i + len(d)])
        i += len(d)
    return out


def transfer_again(work: WorkDir, an: Anonymizer, fin: Finisher, k: int, docs: set[int]) -> None:
    """Chunk ``k``'s documents ``docs`` (positions) made consistent with the corpus's forms and transferred
    again over the run's links, fitted to their new tokens."""
    anon = by_document(work.load(WorkDir.chunk("anon", k)).items)
    old = by_document(consistent_items(work, k))
    saved: TransferredChunk = work.load(WorkDir.chunk("tr", k))
    links, done = cut(saved.links, old), cut(saved.done, old)
    new = list(old)
    for j in docs:
        new[j] = make_consistent(anon[j], fin.forms, an, None)[0] if fin.forms is not None else anon[j]
    items = [it for d in new for it in d]
    added = sum(len(c.mentions) - len(a.mentions) for c, a in zip(items, (a for d in anon for a in d), strict=True))
    if added:
        work.dump(WorkDir.chunk("cons", k), AnonChunk(items, None))
    else:
        work.drop(WorkDir.chunk("cons", k))
    work.write_json(WorkDir.chunk("cons", k, "json"), {"size": len(items), "added": added})
    sel = sorted(docs)
    fitted = [[fit_links(o.replaced, n.replaced, lk) for n, o, lk in zip(new[j], old[j], links[j], strict=True)]
              for j in sel]
    fin.next_by_scope = {}
    got, founds = fin.transfer_chunk([it for j in sel for it in new[j]], [lk for f in fitted for lk in f])
    scopes = dict(saved.next_by_scope)
    for key in {an.scope_key(it.pair) for j in sel for it in new[j]}:
        scopes.pop(key, None)
    scopes.update(fin.next_by_scope)
    for j, found, d, lk in zip(sel, founds, cut(got, [new[j] for j in sel]), fitted, strict=True):
        saved.found[j], done[j], links[j] = found, d, lk
    work.dump(WorkDir.chunk("tr", k), TransferredChunk([x for d in done for x in d], [x for d in links for x in d],
                                                        saved.found, scopes))


def found_by_pass2(work: WorkDir, k: int, docs: set[int], old: TargetForms, new: TargetForms,
                   changed: set[str]) -> set[int]:
    """Of chunk ``k``'s documents ``docs`` (their target text holds a ``changed`` form), those where pass 2
    finds a changed form, with the corpus's old target forms or the new ones, beside the pairs' mentions (a
    form inside a mention, or in none of the forms' hits, changes nothing there)."""
    items = by_document(consistent_items(work, k))
    done = cut(work.load(WorkDir.chunk("tr", k)).done, items)
    return {j for j in docs if any(
        key in changed for it, (tr, _) in zip(items[j], done[j], strict=True) for t in (old, new)
        if t.forms is not None for _s, _e, key in t.forms.find(it.pair.tgt, tr.mentions))}


def _records(text: str, ext: str) -> list[str]:
    """A part file's text cut into its pairs' records: a line each (ended by ``\n`` only: a record's text may
    hold another line separator, such as U+2028), a ``<tu>`` element in TMX."""
    if ext == "tmx":
        return [r for r in TU_START.split(text) if r]
    return [line + "\n" for line in text.split("\n")[:-1]]


def write_again(work: WorkDir, fin: Finisher, targets: TargetForms, k: int, docs: set[int],
                langs: tuple[str, str]) -> tuple[dict[str, list], list[str]]:
    """Chunk ``k``'s documents ``docs`` written again (pass 2): their records in the chunk's part files and
    their report counts replaced. Returns their key-store rows (by unit) and the chunk's units, for
    ``KeyStore.replace_units`` (the key store has one writer: the process that called the steps)."""
    saved: TransferredChunk = work.load(WorkDir.chunk("tr", k))
    items = by_document(consistent_items(work, k))
    links, done = cut(saved.links, items), cut(saved.done, items)
    sel = sorted(docs)
    fin.next_by_scope = dict(saved.next_by_scope)
    results = list(fin.finish_transferred([it for j in sel for it in items[j]], [lk for j in sel for lk in links[j]],
                                          [x for j in sel for x in done[j]], targets))
    writers = PartWriters(None, k, *langs)
    for r in results:
        writers.write(r.anonymized)
    for ext in PARTS:
        fresh = cut(_records(writers.text(ext), ext), [items[j] for j in sel])
        path = work / f"out-{k:06d}.{ext}"
        with open(path, encoding="utf-8", newline="") as fh:
            records = cut(_records(fh.read(), ext), items)
        for j, rs in zip(sel, fresh, strict=True):
            records[j] = rs
        with atomic_write(path, perm=0o600, sync=False) as fh:
            fh.writelines(r for d in records for r in d)
    per_doc = cut(results, [items[j] for j in sel])
    new_rows = {it.pair.id: KeyStore.rows(r.anonymized, r.scope_key, k)
                for j, rs in zip(sel, per_doc, strict=True) for it, r in zip(items[j], rs, strict=True)}
    record = work.read_json(WorkDir.chunk("out", k, "json"))
    for j, rs in zip(sel, per_doc, strict=True):
        st = Stats()
        for r in rs:
            st.add(r)
        record["doc_stats"][j] = st.to_json()
    record["stats"] = Stats.merged(record["doc_stats"]).to_json()
    work.write_json(WorkDir.chunk("out", k, "json"), record)
    return new_rows, [it.pair.id for d in items for it in d]


# -- the run's alignment, fitted to a pair's new tokens ------------------------------------------

def _original_spans(rep: Replaced) -> list[tuple[int, int]]:
    """Each token of the anonymized text with the span of original text it stands for (a placeholder: the
    whole mention it replaced)."""
    marks, shift = [], 0
    for start, end, n in rep.replacements:
        marks.append((start + shift, start + shift + n, start, end))
        shift += n - (end - start)
    out, i, shift = [], 0, 0
    for s, e in tokenize(rep.text):
        while i < len(marks) and marks[i][1] <= s:
            shift += (marks[i][1] - marks[i][0]) - (marks[i][3] - marks[i][2])
            i += 1
        if i < len(marks) and marks[i][0] < e:
            out.append((marks[i][2], marks[i][3]))
        else:
            out.append((s - shift, e - shift))
    return out


def fit_links(old: Replaced, new: Replaced, links: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``links`` (over ``old``'s tokens) over ``new``'s: a new token is linked to the target words that the
    old tokens sharing original characters with it were linked to."""
    if old.text == new.text:
        return links
    olds, news = _original_spans(old), _original_spans(new)
    by_old: dict[int, set[int]] = {}
    for i, j in links:
        by_old.setdefault(i, set()).add(j)
    # the old spans follow each other in text order, so those a new span meets are a run found by bisection
    # (not every old token looked at for every new one: a long segment stays linear)
    ends = [oe for _, oe in olds]
    out = set()
    for n, (s, e) in enumerate(news):
        o = bisect_right(ends, s)  # the first old span that ends after s
        while o < len(olds) and olds[o][0] < e:
            if s < olds[o][1]:
                out.update((n, j) for j in by_old.get(o, ()))
            o += 1
    return sorted(out)
