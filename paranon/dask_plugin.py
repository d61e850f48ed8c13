"""The Dask worker plug-in that holds a worker process's stage; imported only by a run that uses Dask."""

from __future__ import annotations

from distributed import WorkerPlugin

from .parallel import StageHolder


class StagePlugin(WorkerPlugin, StageHolder):
    """A :class:`~paranon.parallel.StageHolder` that Dask installs in every worker process (also in one that
    joins later). Registered idempotently: a long-lived worker keeps its holder from one run to the next, so a
    stage may reuse the anonymizer of the one before it."""

    idempotent = True
