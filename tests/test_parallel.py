"""Where chunk jobs run: the local pool or a Dask cluster, with the same results in the same order."""

from __future__ import annotations

import copy
import os
import pickle
import sys

import pytest

from paranon import parallel
from paranon.pipeline import run
from tests.conftest import SAMPLE


class Square:
    """A stage: set up once per process, then one call per job."""

    def setup(self, previous) -> None:
        return None

    def __call__(self, x: int) -> int:
        return x * x


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_job_order(workers):
    with parallel.in_order(Square(), range(50), workers) as results:
        assert list(results) == [x * x for x in range(50)]


class Faulty:
    """A stage whose job 3 fails in the way named by ``how``."""

    def __init__(self, how: str) -> None:
        self.how = how

    def setup(self, previous) -> None:
        if self.how == "setup":
            raise ValueError("no set-up")

    def __call__(self, x: int):
        if x == 3 and self.how == "raises":
            raise ValueError("job 3")
        if x == 3 and self.how == "unpicklable":
            return lambda: x
        if x == 3 and self.how == "dies":
            os._exit(7)
        return x


@pytest.mark.parametrize("how, error, message", [
    ("raises", ValueError, "job 3"),
    ("setup", ValueError, "no set-up"),
    ("unpicklable", (AttributeError, pickle.PicklingError), "lambda"),
    ("dies", RuntimeError, "exit code 7"),
])
def test_a_failing_process_is_an_error_here_not_a_wait(how, error, message):
    with pytest.raises(error, match=message):
        with parallel.in_order(Faulty(how), range(6), 2) as results:
            list(results)


def test_a_job_on_its_way_to_dask_shows_no_text():
    """Dask logs a failed task's arguments; a job can hold text that is not anonymized yet."""
    sealed = parallel.Sealed(("Pedro Pérez Rodríguez", 3))
    assert "Pérez" not in repr(sealed) and "Pérez" not in str(sealed)
    assert pickle.loads(pickle.dumps(sealed)).job == ("Pedro Pérez Rodríguez", 3)


class Recorder:
    """A stage that records its set-ups, and which stage (if any) the process ran before."""

    def __init__(self, tag: str, calls: list[str]) -> None:
        self.tag, self.calls = tag, calls

    def setup(self, previous) -> None:
        self.calls.append(f"setup {self.tag} after {getattr(previous, 'tag', None)}")

    def __call__(self, x: int) -> int:
        return x * x


@pytest.mark.parametrize("stages, expected", [
    # a worker sets itself up once per stage, however many of the stage's jobs it runs
    ([("s1", "a"), ("s1", "a"), ("s1", "a")], ["setup a after None"]),
    # a new stage (or run) on the same long-lived worker replaces the one before, which it is handed
    ([("s1", "a"), ("s2", "b"), ("s2", "b")], ["setup a after None", "setup b after a"]),
    ([("s1", "a"), ("s2", "b"), ("s1", "a")], ["setup a after None", "setup b after a", "setup a after b"]),
])
def test_a_dask_worker_is_set_up_once_per_stage(stages, expected):
    holder = pickle.loads(pickle.dumps(parallel.StageHolder()))  # as a worker receives it
    calls: list[str] = []
    made = {tag: Recorder(tag, calls) for _, tag in stages}
    for key, tag in stages:
        assert holder.run(key, made[tag], 3) == 9
    assert calls == expected


def test_no_dask_installed_is_one_clear_error(monkeypatch, tmp_path):
    from paranon.errors import InputError

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(InputError, match=r"--scheduler local: Dask is not installed \(pip install"):
        with parallel.use_scheduler("local", 2, tmp_path):
            pass


def test_a_long_lived_cluster_carries_nothing_from_one_run_to_the_next(tmp_path, cfg):
    """Two runs with different settings on one cluster (workers with two threads each, so jobs of a stage
    can meet in one process): the second gives exactly what it gives on its own, in this process."""
    distributed = pytest.importorskip("distributed")
    by_segment = copy.deepcopy(cfg)
    by_segment["anonymize"]["scope"] = "segment"
    local = tmp_path / "local"
    small = {"chunk_size": 20, "index": {"enabled": False}}
    run(SAMPLE, local, {**by_segment, **small}, quiet=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=True, dashboard_address=None,
                                  scheduler_kwargs={"dashboard": False}) as cluster:
        on_dask = {**small, "workers": 2, "scheduler": cluster.scheduler_address}
        run(SAMPLE, tmp_path / "first", {**cfg, **on_dask}, quiet=True)
        report = run(SAMPLE, tmp_path / "second", {**by_segment, **on_dask}, quiet=True)
    assert report["workers"] == 4 and report["scheduler"] == cluster.scheduler_address
    first = (tmp_path / "first" / "corpus.jsonl").read_bytes()
    second = (tmp_path / "second" / "corpus.jsonl").read_bytes()
    assert second == (local / "corpus.jsonl").read_bytes()
    assert first != second, "the two settings number entities differently: the test would show a stale worker"
