"""Where the chunk jobs of a stage run: in this process, on a pool of forked processes, or on a Dask cluster.

Every parallel stage (``paranon/stage_*.py``) hands :func:`in_order` a stage object and its jobs (chunks), and
reads the results back in job order, so the output is the same byte for byte wherever the jobs ran. A stage
is a :class:`Stage`: it owns its per-process state, ``setup`` builds what is missing of it in a process, and
calling it runs one job. A forked process inherits the parent's stage, built; a spawned process or a Dask
worker receives it pickled (stages pickle their settings only) and builds the rest in ``setup``.

The default is a local process pool; :func:`use_scheduler` (``paranon run --scheduler``) sends them to a Dask
cluster instead: ``local`` starts one on this machine with ``--workers`` processes, an address
(``tcp://host:8786``) joins a running one. Dask is an optional extra (``pip install
'paranon[dask]'``); the run's working folder must be visible to the cluster's workers at the same path
(a shared file system), as jobs read and write their chunk checkpoints there.

A Dask worker outlives a stage (and a run), unlike a pool's processes: the first job of each stage that
reaches a worker process replaces the process's stage (dropping what an earlier stage or run left) and sets
it up, handing it the one it replaces (whose anonymizer it may reuse if the settings are the same); a lock
runs one job at a time in a process, so workers with several threads stay correct, only no faster.
The stage a process is running (:class:`_ThisProcess`) and the run's Dask client (:class:`_Cluster`) are the
process's state, held here and nowhere else.
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Protocol

from .errors import InputError
from .runlock import die_with_parent


class _Cluster:
    """The Dask client of the current run, set by :func:`use_scheduler` for the length of its block."""

    client: Any = None


class Stage(Protocol):
    """What :func:`in_order` runs: set up once per process, then called once per job."""

    def setup(self, previous: Any | None) -> None: ...

    def __call__(self, job: Any) -> Any: ...


class _ThisProcess:
    """The stage this process runs (a pool process's, or a Dask worker's for the stage named ``key``)."""

    stage: Any = None
    key: str | None = None

    @classmethod
    def enter(cls, stage: Any, key: str | None) -> None:
        previous, cls.stage, cls.key = cls.stage, None, None
        stage.setup(previous)
        cls.stage, cls.key = stage, key


@contextmanager
def in_order(stage: Stage, jobs: Iterable, workers: int) -> Iterator[Iterable]:
    """``stage`` over ``jobs``, results in order: in this process when ``workers`` <= 1; else on the Dask cluster
    when :func:`use_scheduler` has set one, or on a pool of ``workers`` forked (or spawned) processes. At most
    two jobs per process (per Dask thread: on Dask, ``workers`` is the cluster's thread count, which
    :func:`use_scheduler` yields) are in flight, so a stage never reads its whole input ahead. The pool or the
    pending Dask jobs are stopped on the way out, also when the caller fails."""
    if workers <= 1:
        stage.setup(None)
        yield map(stage, jobs)
        return
    if _Cluster.client is not None:
        with _on_dask(_Cluster.client, stage, jobs, 2 * workers) as results:
            yield results
        return
    ctx = get_context("fork") if hasattr(os, "fork") else get_context("spawn")
    pool = ctx.Pool(workers, initializer=_pool_worker, initargs=(stage,))
    try:
        yield _bounded((pool.apply_async(_run, (job,)) for job in jobs), lambda r: r.get(), 2 * workers)
    finally:
        pool.terminate()
        pool.join()


def _pool_worker(stage: Stage) -> None:
    """A pool process: dies with the run (no orphan after ``kill -9``), leaves Ctrl+C to the parent (no
    traceback per worker), then the stage's own set-up."""
    die_with_parent()
    _ThisProcess.enter(stage, None)


def _run(job: Any) -> Any:
    """One job in a pool process, by the stage it was set up with."""
    return _ThisProcess.stage(job)


def _bounded(submitted: Iterator, get: Callable[[Any], Any], in_flight: int) -> Iterator:
    """Results in order, with at most ``in_flight`` jobs submitted ahead of the one being waited for
    (``Pool.imap`` would read the whole input)."""
    pending: deque = deque()
    for handle in submitted:
        pending.append(handle)
        while len(pending) >= in_flight:
            yield get(pending.popleft())
    while pending:
        yield get(pending.popleft())


# --- Dask --------------------------------------------------------------------------------------------------


class Sealed:
    """A job on its way to a Dask worker. Its repr names nothing: Dask logs the arguments of a failed task,
    and a job can hold original (not yet anonymized) text."""

    __slots__ = ("job",)

    def __init__(self, job: Any) -> None:
        self.job = job

    def __repr__(self) -> str:
        return "<paranon job>"

    def __getstate__(self) -> Any:
        return self.job

    def __setstate__(self, state: Any) -> None:
        self.job = state


_LOCK = threading.Lock()


def _remote(key: str, parent: int, stage: Stage, sealed: Sealed) -> Any:
    """Runs on a Dask worker: the process takes ``stage`` (named ``key``) and sets it up on the stage's first
    job there, then runs the job with the stage it holds."""
    if os.getpid() == parent:
        raise RuntimeError("paranon's Dask workers must be processes of their own, not threads of the client")
    with _LOCK:
        if _ThisProcess.key != key:
            _ThisProcess.enter(stage, key)
        return _ThisProcess.stage(sealed.job)


@contextmanager
def _on_dask(client: Any, stage: Stage, jobs: Iterable, in_flight: int) -> Iterator[Iterable]:
    key, parent = uuid.uuid4().hex, os.getpid()
    submitted: list = []

    def submit() -> Iterator:
        for job in jobs:
            fut = client.submit(_remote, key, parent, stage, Sealed(job), pure=False)
            submitted.append(fut)
            yield fut

    def get(fut: Any) -> Any:
        try:
            return fut.result()
        finally:
            fut.release()

    try:
        yield _bounded(submit(), get, in_flight)
    finally:
        client.cancel([f for f in submitted if not f.done()])


@contextmanager
def use_scheduler(address: str | None, workers: int, scratch: Path) -> Iterator[int]:
    """Within the block, parallel stages run on Dask: ``address`` ``local`` starts a cluster of ``workers``
    single-threaded processes on this machine (spilling, if ever, into ``scratch``, which is removed with
    the run's checkpoints); any other address is a running scheduler's. Yields how many jobs the cluster
    runs at once (its threads), or 0 with no ``address``: then the stages use the local process pool."""
    if not address:
        yield 0
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(f"--scheduler {address}: Dask is not installed (pip install 'paranon[dask]')") from None
    # Dask narrates every connection at INFO and logs the closing of its own sockets with tracebacks
    logging.getLogger("distributed").setLevel(logging.ERROR)
    with ExitStack() as opened:
        try:
            if address == "local":
                scratch.mkdir(parents=True, exist_ok=True)
                cluster = opened.enter_context(LocalCluster(
                    n_workers=max(1, workers), threads_per_worker=1, processes=True, dashboard_address=None,
                    scheduler_kwargs={"dashboard": False}, local_directory=str(scratch),
                    silence_logs=logging.ERROR))
                client = opened.enter_context(Client(cluster))
            else:
                client = opened.enter_context(Client(address, timeout="30s"))
                client.wait_for_workers(1, timeout=60)
        except OSError as e:  # TimeoutError included
            raise InputError(f"--scheduler {address}: no Dask cluster with workers there ({e})") from None
        _Cluster.client = client
        try:
            yield max(1, sum(client.nthreads().values()))
        finally:
            _Cluster.client = None
