"""``paranon apply``'s per-chunk steps on the run's cores.

Chunk K always goes to the same process (K modulo the processes, each a one-process ``parallel.Workers``
forked when apply starts): the checkpoint files its first step loads stay loaded in that process
(``CachedWork``) for the next ones (recognize, transfer, look for pass 2's changed forms, write). What the
steps share (the corpus's forms, its target forms) is sent to every process when it is known. A step's result
does not depend on the process that ran it (a chunk's files are read and written by its process only); the key
store is written by the caller, from the rows the write step returns. With one process the steps run here.
"""

from __future__ import annotations

from typing import Any

from .align.finish import Finisher
from .anonymize.consistency import CorpusForms
from .anonymize.engine import Anonymizer
from .apply_chunk import CachedWork, found_by_pass2, transfer_again, write_again
from .apply_reach import recognize_again
from .parallel import Workers
from .workdir import WorkDir


class ChunkSteps:
    """One process's worker: each step for the chunks sent to it, and what the steps share."""

    def __init__(self, work: CachedWork, an: Anonymizer, langs: tuple[str, str]) -> None:
        self.work, self.an, self.langs = work, an, langs
        self.fin = Finisher(an, *langs)
        self.targets: tuple | None = None  # the corpus's old and new target forms, the keys that changed

    def __call__(self, job: tuple[str, int, Any]) -> Any:
        step, k, arg = job
        if step == "recognize":
            return recognize_again(self.work, self.an, k, *arg)
        if step == "forms":  # the corpus's forms (their state: what finding them needs)
            self.fin.forms = CorpusForms.from_state(arg) if arg is not None else None
            return None
        if step == "transfer":
            transfer_again(self.work, self.an, self.fin, k, arg)
            return self.work.load(WorkDir.chunk("tr", k)).found
        if step == "targets":
            self.targets = arg
            return None
        assert self.targets is not None, "pass 2 needs the corpus's target forms"
        old, new, changed = self.targets
        if step == "pass2":
            return found_by_pass2(self.work, k, arg, old, new, changed)
        return write_again(self.work, self.fin, new, k, arg, self.langs)


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

    def run(self, step: str, chunks: dict[int, Any]) -> dict[int, Any]:
        """``step`` over each chunk with its argument (its documents); the results by chunk."""
        if not self.pools:
            return {k: self.steps((step, k, arg)) for k, arg in sorted(chunks.items())}
        n = len(self.pools)
        sent = {k: self.pools[k % n].submit((step, k, arg)) for k, arg in sorted(chunks.items())}
        return {k: self.pools[k % n].result(number) for k, number in sent.items()}

    def share(self, step: str, value: Any) -> None:
        """``value`` given to every process's steps (``forms``, ``targets``)."""
        self.steps((step, -1, value))
        for pool in self.pools:
            pool.result(pool.submit((step, -1, value)))
