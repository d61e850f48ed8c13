"""Where the chunk jobs of a stage run: in this process, on forked processes of this machine, or on a Dask cluster.

Every parallel stage (``paranon/stage_*.py``) hands :meth:`Runner.in_order` a stage object and its jobs
(chunks), and reads the results back in job order, so the output is the same byte for byte wherever the jobs
ran. A stage is a :class:`Stage`: it owns its per-process state, ``setup`` builds what is missing of it in a
process, and calling it runs one job. A forked process inherits the parent's stage, built; a spawned process
or a Dask worker receives it pickled (stages pickle their settings only) and builds the rest in ``setup``.

No state of a process is held by this module: a local process holds its stage in the frame of its loop
(:class:`Workers`, also used by the audit and the index build), a Dask worker in a plug-in object of its own
(:class:`StageHolder`), and the run's Dask client is in the :class:`Runner` that :func:`use_scheduler` yields.

The default is local processes; :func:`use_scheduler` (``paranon run --scheduler``) sends the jobs to a Dask
cluster instead: ``local`` starts one on this machine with ``--workers`` processes, an address
(``tcp://host:8786``) joins a running one. Dask is an optional extra (``pip install
'paranon[dask]'``); the run's working folder must be visible to the cluster's workers at the same path
(a shared file system), as jobs read and write their chunk checkpoints there.

A Dask worker outlives a stage, unlike a local process: the first job of each stage that reaches a worker
process replaces the stage its holder holds (dropping what an earlier stage left) and sets it up, handing it
the one it replaces (whose anonymizer it may reuse if the settings are the same); the holder's lock runs one
job at a time in a process, so workers with several threads stay correct, only no faster.
"""

from __future__ import annotations

import logging
import os
import pickle
import queue
import signal
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from multiprocessing.pool import ExceptionWithTraceback
from pathlib import Path
from typing import Any, Protocol

from .errors import InputError
from .runlock import die_with_parent


class Stage(Protocol):
    """What :func:`in_order` runs: set up once per process, then called once per job."""

    def setup(self, previous: Any | None) -> None: ...

    def __call__(self, job: Any) -> Any: ...


@dataclass(frozen=True)
class Runner:
    """Where a run's stages send their jobs: ``workers`` processes here, or the Dask cluster of ``client``."""

    workers: int
    client: Any = None

    def in_order(self, stage: Stage, jobs: Iterable, workers: int | None = None):
        """:func:`in_order` on this runner's processes or cluster (``workers``: fewer, e.g. 1 for a stage
        that must run in this process)."""
        return in_order(stage, jobs, self.workers if workers is None else workers, self.client)


@contextmanager
def in_order(stage: Stage, jobs: Iterable, workers: int, client: Any = None) -> Iterator[Iterable]:
    """``stage`` over ``jobs``, results in order: in this process when ``workers`` <= 1; else on the Dask cluster
    of ``client``, or on ``workers`` forked (or spawned) processes. At most two jobs per process (per Dask
    thread) are in flight, so a stage never reads its whole input ahead. The processes or the pending Dask
    jobs are stopped on the way out, also when the caller fails."""
    if workers <= 1:
        stage.setup(None)
        yield map(stage, jobs)
        return
    if client is not None:
        with _on_dask(client, stage, jobs, 2 * workers) as results:
            yield results
        return
    with Workers(stage, workers) as pool:
        yield _bounded((pool.submit(job) for job in jobs), pool.result, 2 * workers)


def _bounded(submitted: Iterator, get: Callable[[Any], Any], in_flight: int) -> Iterator:
    """Results in order, with at most ``in_flight`` jobs submitted ahead of the one being waited for."""
    pending: deque = deque()
    for handle in submitted:
        pending.append(handle)
        while len(pending) >= in_flight:
            yield get(pending.popleft())
    while pending:
        yield get(pending.popleft())


class Workers:
    """``processes`` processes of this machine (forked where the system can, else spawned), each running one
    ``worker`` object over the jobs it is sent: the worker is the process's state, held in the frame of the
    process's loop (:func:`_serve`) and nowhere else. A forked process inherits the worker as it is here (a
    large matcher or a shared counter is not copied); a spawned one receives it pickled. With ``setup``, each
    process first calls ``worker.setup(None)`` (a :class:`Stage`).

    Jobs and results travel pickled; a job's exception is raised here, by :meth:`result`, with the worker's
    traceback as its cause; a process that dies (killed, out of memory) is an error here, not a wait forever.
    The processes die with this one (``die_with_parent``) and are stopped on the way out of the block."""

    def __init__(self, worker: Any, processes: int, setup: bool = True, start: str | None = None) -> None:
        ctx = get_context(start or ("fork" if hasattr(os, "fork") else "spawn"))
        self._tasks, self._results = ctx.Queue(), ctx.Queue()
        self._procs = [ctx.Process(target=_serve, args=(worker, setup, self._tasks, self._results), daemon=True)
                       for _ in range(max(1, processes))]
        self._sent = 0
        self._back: dict[int, tuple[bool, Any]] = {}
        with _signals_held():  # until a process has its own handlers: the run's would print a traceback there
            for proc in self._procs:
                proc.start()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def submit(self, job: Any) -> int:
        """Send ``job`` to the next free process; returns its number, for :meth:`result`."""
        self._tasks.put((self._sent, job))
        self._sent += 1
        return self._sent - 1

    def result(self, number: int, tick: Callable[[], None] | None = None) -> Any:
        """The result of job ``number`` (waiting for it; ``tick`` is called every half second meanwhile)."""
        while number not in self._back:
            k, ok, value = self._receive(tick)
            self._back[k] = (ok, value)
        ok, value = self._back.pop(number)
        if not ok:
            raise value
        return value

    def as_done(self, jobs: Iterable) -> Iterator:
        """Every job of ``jobs`` submitted at once; their results as each job ends (in no set order)."""
        numbers = [self.submit(job) for job in jobs]
        for _ in numbers:
            k, ok, value = self._receive(None)
            if not ok:
                raise value
            yield value

    def _receive(self, tick: Callable[[], None] | None) -> tuple[int, bool, Any]:
        while True:
            try:
                k, ok, value = pickle.loads(self._results.get(timeout=0.5))
            except queue.Empty:
                if tick is not None:
                    tick()
                dead = [p.exitcode for p in self._procs if p.exitcode is not None]
                if dead:
                    raise RuntimeError(f"a worker process ended unexpectedly (exit code {dead[0]})") from None
                continue
            if k < 0:  # a process's set-up failed
                raise value
            return k, ok, value

    def close(self) -> None:
        for proc in self._procs:
            proc.terminate()
        for proc in self._procs:
            proc.join()
        for q in (self._tasks, self._results):
            q.cancel_join_thread()  # what is still queued goes nowhere: nobody reads it any more
            q.close()


def _serve(worker: Any, setup: bool, tasks: Any, results: Any) -> None:
    """A :class:`Workers` process: dies with the run (no orphan after ``kill -9``), leaves Ctrl+C to the parent
    (no traceback per process), sets its worker up, then runs it over each job it receives. A result is
    pickled here, so that one that cannot be is this job's error, not a result lost on its way."""
    die_with_parent()
    if _HELD:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # a stop sent meanwhile ends the process now, quietly
    try:
        if setup:
            worker.setup(None)
    except BaseException as e:
        results.put(_failure(-1, e))
        return
    while True:
        k, job = tasks.get()
        try:
            out = pickle.dumps((k, True, worker(job)))
        except BaseException as e:
            out = _failure(k, e)
        results.put(out)


_HELD = frozenset({signal.SIGINT, signal.SIGTERM}) if hasattr(signal, "pthread_sigmask") else frozenset()


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl+C and SIGTERM held back in this thread (and so in the processes it starts) within the block."""
    if not _HELD:
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _failure(k: int, e: BaseException) -> bytes:
    """Job ``k``'s exception, pickled with its traceback (or, if it cannot be pickled, a RuntimeError naming it)."""
    try:
        return pickle.dumps((k, False, ExceptionWithTraceback(e, e.__traceback__)))
    except Exception:
        return pickle.dumps((k, False, RuntimeError(f"{type(e).__name__} in a worker process: {e}")))


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


class StageHolder:
    """A Dask worker process's state (held by its worker plug-in, ``dask_plugin.StagePlugin``): the stage it
    runs, named by its key, and the lock that runs one job at a time."""

    name = "paranon-stage"

    def __init__(self) -> None:
        self.stage: Any = None
        self.key: str | None = None
        self.lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        return {}  # sent to each worker empty: a holder starts with no stage

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()

    def run(self, key: str, stage: Stage, job: Any) -> Any:
        """``job`` by the stage named ``key``: the first job of a stage replaces the one held (the new stage's
        ``setup`` is handed the old) and sets it up."""
        with self.lock:
            if self.key != key:
                previous, self.stage, self.key = self.stage, None, None
                stage.setup(previous)
                self.stage, self.key = stage, key
            return self.stage(job)


def _remote(key: str, parent: int, stage: Stage, sealed: Sealed) -> Any:
    """Runs on a Dask worker: the job by the stage held by the worker's :class:`StageHolder`."""
    if os.getpid() == parent:
        raise RuntimeError("paranon's Dask workers must be processes of their own, not threads of the client")
    from distributed import get_worker

    return get_worker().plugins[StageHolder.name].run(key, stage, sealed.job)


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
def use_scheduler(address: str | None, workers: int, scratch: Path) -> Iterator[Runner]:
    """Yields the :class:`Runner` of the block: with no ``address``, ``workers`` local processes; else the
    block's parallel stages run on Dask: ``local`` starts a cluster of ``workers`` single-threaded processes
    on this machine (spilling, if ever, into ``scratch``, which is removed with the run's checkpoints); any
    other address is a running scheduler's. On Dask the runner's ``workers`` is the cluster's thread count."""
    if not address:
        yield Runner(workers)
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
        from .dask_plugin import StagePlugin

        client.register_plugin(StagePlugin(), name=StageHolder.name)
        yield Runner(max(1, sum(client.nthreads().values())), client)
