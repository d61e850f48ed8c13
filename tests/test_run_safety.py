"""One run per output folder; a run stopped by Ctrl+C, kill -9 or an error says what it left (its .work holds
originals, owner-only) and leaves no process behind; the next start cleans its temporary folders."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from paranon.runlock import LOCK_NAME, OutdirLock, RunLocked, clean_leftovers

from .conftest import SAMPLE


def _config(tmp: Path, index: bool = False) -> Path:
    cfg = tmp / "small-chunks.yaml"
    cfg.write_text(f"chunk_size: 20\nindex: {{enabled: {str(index).lower()}}}\n", encoding="utf-8")
    return cfg


def _cmd(out: Path, cfg: Path, workers: int = 2) -> list[str]:
    return [sys.executable, "-m", "paranon.cli", "run", str(SAMPLE), "-o", str(out), "--config", str(cfg),
            "--workers", str(workers), "--quiet"]


def _wait_for(proc: subprocess.Popen, found, timeout: float = 120) -> bool:
    deadline = time.time() + timeout
    while proc.poll() is None and time.time() < deadline:
        if found():
            return True
        time.sleep(0.002)
    return False


def _ctrl_c_default() -> None:
    """In the child before it starts: Ctrl+C and SIGTERM as a terminal leaves them (default, not blocked),
    whatever the test process inherited or holds."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def _group_gone(pgid: int, timeout: float = 10) -> bool:
    """Whether every process of the group has ended (zombies reaped by init count as ended)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _eflomal_tmp(pid: int) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"paranon-eflomal-{pid}-*"))


def test_a_second_run_into_the_same_folder_refuses_in_one_line(tmp_path):
    out = tmp_path / "out"
    with OutdirLock(out):
        r = subprocess.run(_cmd(out, _config(tmp_path)), capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and f"(pid {os.getpid()})" in r.stderr
    assert not (out / ".work").exists()


def test_two_concurrent_runs_the_second_refuses(tmp_path):
    out, cfg = tmp_path / "out", _config(tmp_path)
    first = subprocess.Popen(_cmd(out, cfg), stderr=subprocess.PIPE, text=True)
    assert _wait_for(first, lambda: (out / ".work" / "anon-000000.pkl").exists())
    second = subprocess.run(_cmd(out, cfg), capture_output=True, text=True)
    assert first.wait(timeout=300) == 0, first.stderr.read()
    assert second.returncode == 2 and "another paranon run" in second.stderr
    assert (out / "corpus.jsonl").exists() and not (out / LOCK_NAME).exists()


@pytest.mark.parametrize("holder", ["999999999\n", "", "not a pid\n"])
def test_a_lock_left_by_a_dead_run_is_taken_over(tmp_path, holder):
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).write_text(holder)
    with OutdirLock(out) as lock:
        assert lock.path.read_text().strip() == str(os.getpid())
        with pytest.raises(RunLocked):
            OutdirLock(out).__enter__()
    assert not (out / LOCK_NAME).exists()


@pytest.mark.parametrize("how", ["Ctrl+C", "SIGTERM"])
def test_ctrl_c_stops_quietly_says_what_work_holds_and_leaves_no_process(tmp_path, how):
    out, cfg = tmp_path / "out", _config(tmp_path)
    # (started as a terminal starts a command: a test process run in the background has SIGINT ignored, and a
    # child inherits that and any blocked signal; a run started so rightly ignores Ctrl+C)
    proc = subprocess.Popen(_cmd(out, cfg), stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_ctrl_c_default)
    if not _wait_for(proc, lambda: (out / ".work" / "anon-000002.pkl").exists()):
        pytest.skip("the run finished before it could be interrupted")
    if how == "Ctrl+C":
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C reaches the whole process group
    else:
        os.kill(proc.pid, signal.SIGTERM)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130
    assert "Traceback" not in err and len(err.strip().splitlines()) <= 2, err
    assert ".work holds originals" in err
    assert _group_gone(proc.pid)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (out / ".work").rglob("*") if p.is_file()}
    assert modes and all(m == 0o600 for m in modes.values()), modes
    subprocess.run(_cmd(out, cfg), check=True)  # resumes
    assert not (out / ".work").exists() and not _eflomal_tmp(proc.pid)


@pytest.mark.parametrize("stage", ["align", "index"])
def test_kill_9_leaves_no_orphan_and_the_next_start_cleans_up(tmp_path, stage):
    out, cfg = tmp_path / "out", _config(tmp_path, index=True)
    proc = subprocess.Popen(_cmd(out, cfg), start_new_session=True)
    if stage == "align":
        found = lambda: bool(_eflomal_tmp(proc.pid))  # noqa: E731
    else:
        found = lambda: any(p.is_dir() for p in out.glob("index-*"))  # noqa: E731
    if not _wait_for(proc, found):
        pytest.skip(f"the run was not caught in its {stage} stage")
    os.kill(proc.pid, signal.SIGKILL)  # the run's own process only: its workers must not outlive it
    proc.wait()
    assert _group_gone(proc.pid), "a worker outlived the killed run"
    subprocess.run(_cmd(out, cfg), check=True)
    assert not _eflomal_tmp(proc.pid)
    assert [p.name for p in out.glob("index-*")] == [(out / "index").resolve().name]


@pytest.mark.parametrize("leftover", ["index-20260101000000-abc", ".index-link-123", ".corpus.tmx.x.part"])
def test_clean_leftovers_removes_half_built_files_only(tmp_path, leftover):
    out = tmp_path / "out"
    (out / "index-current").mkdir(parents=True)
    (out / "index").symlink_to("index-current")
    p = out / leftover
    if leftover.startswith(".index-link"):
        p.symlink_to("index-current")
    elif leftover.endswith(".part"):
        p.write_text("x")
    else:
        p.mkdir()
    assert clean_leftovers(out) == [p]
    assert (out / "index-current").is_dir() and not p.exists()


def test_no_unit_read_is_an_error(tmp_path):
    bad = tmp_path / "empty.tmx"
    bad.write_text('<?xml version="1.0"?><tmx version="1.4"><header/><body></body></tmx>')
    r = subprocess.run([sys.executable, "-m", "paranon.cli", "run", str(bad), "-o", str(tmp_path / "o"),
                        "--quiet"], capture_output=True, text=True)
    assert r.returncode == 2 and "no pair to write" in r.stderr and r.stderr.count("\n") == 1
