"""What the stages share: the corpus cut into documents and chunks, and the base of a stage whose jobs need
the run's anonymizer.

A stage object is handed to :func:`paranon.parallel.in_order`. Its settings (``cfg``, the work folder) travel
with it; its per-process state (the anonymizer, forms, finisher ...: the attributes named in
``PROCESS_STATE``) is never pickled: a forked process inherits it built, a spawned process or a Dask worker
builds it in :meth:`AnonymizerStage.setup`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import groupby
from operator import attrgetter
from typing import Any

from .anonymize.engine import Anonymizer
from .collector import quiet_gc
from .corpora.model import SegmentPair
from .workdir import WorkDir


def documents(pairs: Iterable[Any], doc_of: Callable[[Any], str] = attrgetter("doc")) -> Iterator[list[Any]]:
    """Consecutive pairs of the same document (``doc_of``: an item's document, for items that hold a pair)."""
    for _, group in groupby(pairs, key=doc_of):
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


class AnonymizerStage:
    """A stage whose jobs need the run's anonymizer (built once per process, or taken from the stage this
    process ran before when the settings are the same: a long-lived Dask worker)."""

    PROCESS_STATE: tuple[str, ...] = ("anonymizer",)

    def __init__(self, cfg: dict[str, Any], work: WorkDir, anonymizer: Anonymizer | None = None) -> None:
        self.cfg, self.work, self.anonymizer = cfg, work, anonymizer

    def __getstate__(self) -> dict[str, Any]:
        return {k: (None if k in self.PROCESS_STATE else v) for k, v in self.__dict__.items()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def setup(self, previous: Any | None = None) -> None:
        if self.anonymizer is not None:
            return
        prev = getattr(previous, "anonymizer", None)
        if prev is not None and prev.cfg == self.cfg:
            self.anonymizer = prev
        else:
            self.anonymizer = Anonymizer(self.cfg)
            quiet_gc()
