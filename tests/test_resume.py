"""A killed run continues where it stopped and ends with the same outputs; --workers never changes them."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import SAMPLE

DATA_FILES = ["corpus.jsonl", "corpus.tmx", "corpus.pt", "corpus.en", "corpus.tsv", "alignments.pharaoh"]


def _config(tmp: Path) -> Path:
    cfg = tmp / "small-chunks.yaml"
    cfg.write_text("chunk_size: 20\nindex: {enabled: false}\n", encoding="utf-8")
    return cfg


def _cmd(out: Path, cfg: Path, workers: int = 1, *extra: str) -> list[str]:
    return [sys.executable, "-m", "paranon.cli", "run", str(SAMPLE), "-o", str(out), "--config", str(cfg),
            "--workers", str(workers), "--quiet", *extra]


def _keys(path: Path) -> list[tuple]:
    db = sqlite3.connect(str(path))
    try:
        return sorted(db.execute("SELECT unit, side, start, end, scope, number, category, original FROM mentions"))
    finally:
        db.close()


def _outputs(out: Path) -> dict[str, bytes | list]:
    got: dict[str, bytes | list] = {name: (out / name).read_bytes() for name in DATA_FILES}
    got["keys"] = _keys(out / "keys.sqlite")
    return got


def _kill_when(cmd: list[str], marker: Path) -> None:
    """Start ``cmd`` and kill it, with every process it started, with SIGKILL once ``marker`` exists."""
    proc = subprocess.Popen(cmd, start_new_session=True)
    deadline = time.time() + 120
    while not marker.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.002)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    if proc.returncode != -signal.SIGKILL:
        pytest.skip("the run finished before it could be killed")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("reference")
    out = tmp / "out"
    subprocess.run(_cmd(out, _config(tmp)), check=True)
    assert not (out / ".work").exists(), "checkpoints (which hold originals) are removed after a complete run"
    return _outputs(out)


@pytest.mark.parametrize("kill_when", [
    "anon-000002.pkl",   # during the anonymize stage
    "out-000003.json",   # during transfer and writing
])
def test_killed_run_resumes_to_identical_outputs(tmp_path, reference, kill_when):
    cfg = _config(tmp_path)
    out = tmp_path / "out"
    _kill_when(_cmd(out, cfg), out / ".work" / kill_when)
    assert (out / ".work").exists()
    assert not (out / "corpus.jsonl").exists(), "no final file may exist before the run completes"
    subprocess.run(_cmd(out, cfg), check=True)
    assert _outputs(out) == reference


def test_restart_throws_checkpoints_away(tmp_path, reference):
    cfg = _config(tmp_path)
    out = tmp_path / "out"
    (out / ".work").mkdir(parents=True)
    (out / ".work" / "anon-000000.pkl").write_bytes(b"not a checkpoint")
    subprocess.run(_cmd(out, cfg, 1, "--restart"), check=True)
    assert _outputs(out) == reference


def test_output_is_the_same_whatever_the_number_of_workers(tmp_path, reference):
    out = tmp_path / "out"
    subprocess.run(_cmd(out, _config(tmp_path), 2), check=True)
    assert _outputs(out) == reference


def test_output_is_the_same_on_a_dask_cluster(tmp_path, reference):
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    subprocess.run(_cmd(out, _config(tmp_path), 2, "--scheduler", "local"), check=True)
    assert _outputs(out) == reference
    assert not (out / ".work").exists(), "the cluster's scratch folder goes with the checkpoints"


def test_a_run_killed_on_dask_resumes_without_it(tmp_path, reference):
    """Checkpoints do not depend on where the jobs ran: a run on a Dask cluster, killed with its workers,
    ends on the local pool with the outputs of an uninterrupted run."""
    pytest.importorskip("distributed")
    cfg = _config(tmp_path)
    out = tmp_path / "out"
    _kill_when(_cmd(out, cfg, 2, "--scheduler", "local"), out / ".work" / "anon-000003.pkl")
    subprocess.run(_cmd(out, cfg, 2), check=True)
    assert _outputs(out) == reference
