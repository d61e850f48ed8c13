"""``paranon apply``'s per-chunk steps (:mod:`paranon.apply_chunk`) on the run's cores.

Chunk K always goes to the same process (K modulo the processes, each a one-process ``parallel.Workers``
forked once the corpus's forms are known): its checkpoint files, loaded by the transfer step, stay loaded in
that process (``CachedWork``) for the write step. A step's result does not depend on the process that ran it
(a chunk's files are read and written by its process only); the key store is written here, by the caller,
from the rows the write step returns. With one process the steps run here.
"""

from __future__ import annotations

from typing import Any

from .align.finish import Finisher, TargetForms
from .anonymize.engine import Anonymizer
from .apply_chunk import CachedWork, transfer_again, write_again
from .parallel import Workers
from .workdir import WorkDir

Positions = dict[int, set[int]]  # chunk -> positions of its documents


class ChunkSteps:
    """One process's worker: chunks transferred again (pass 1) and written again (pass 2, with the corpus's
    target forms it was sent)."""

    def __init__(self, work: CachedWork, an: Anonymizer, fin: Finisher, langs: tuple[str, str]) -> None:
        self.work, self.an, self.fin, self.langs = work, an, fin, langs
        self.targets: TargetForms | None = None

    def __call__(self, job: tuple[str, int, Any]) -> Any:
        step, k, arg = job
        if step == "transfer":
            transfer_again(self.work, self.an, self.fin, k, arg)
            return self.work.load(WorkDir.chunk("tr", k)).found
        if step == "targets":
            self.targets = arg
            return None
        assert self.targets is not None, "the write step needs the corpus's target forms"
        return write_again(self.work, self.fin, self.targets, k, arg, self.langs)


class ChunkPool:
    """``ChunkSteps`` in ``processes`` processes (here when 1), chunk K always in the same one."""

    def __init__(self, steps: ChunkSteps, processes: int) -> None:
        self.steps = steps
        self.pools = [Workers(steps, 1, setup=False, start="fork") for _ in range(processes)] \
            if processes > 1 else []

    def __enter__(self) -> ChunkPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        for pool in self.pools:
            pool.close()

    def run(self, step: str, chunks: Positions) -> dict[int, Any]:
        """``step`` over each chunk's documents; the results by chunk."""
        if not self.pools:
            return {k: self.steps((step, k, docs)) for k, docs in sorted(chunks.items())}
        n = len(self.pools)
        sent = {k: self.pools[k % n].submit((step, k, docs)) for k, docs in sorted(chunks.items())}
        return {k: self.pools[k % n].result(number) for k, number in sent.items()}

    def send_targets(self, targets: TargetForms) -> None:
        self.steps.targets = targets
        for pool in self.pools:
            pool.result(pool.submit(("targets", -1, targets)))
