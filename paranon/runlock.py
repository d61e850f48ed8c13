"""One run per output folder, and what a killed run leaves behind cleaned on the next start.

* :class:`OutdirLock`: ``OUTDIR/.paranon.lock`` holds the running process's pid under an exclusive
  ``flock``; a second run refuses with one line naming that pid. The kernel drops the lock of a dead
  process, so a lock file left by ``kill -9`` is taken over.
* :func:`clean_leftovers`: under the lock, half-built index folders (``index-*`` the ``index`` link does not
  point at, ``.index-link-*``) and the eflomal temporary folders (``/tmp/paranon-eflomal-PID-*``) of
  processes that no longer run are removed.
* :func:`die_with_parent`: a pool worker's initializer; on Linux the kernel kills the worker when its parent
  dies (``kill -9`` of the run leaves no orphan computing on), and the worker ignores SIGINT (Ctrl+C
  reaches the whole process group; the parent alone stops the run, without a traceback per worker).
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from .errors import InputError

LOCK_NAME = ".paranon.lock"
EFLOMAL_TMP = re.compile(r"paranon-eflomal-(\d+)-")
PR_SET_PDEATHSIG = 1


class RunLocked(InputError):
    """Another run holds the output folder."""


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class OutdirLock:
    """``with OutdirLock(outdir):`` the run's exclusive hold on its output folder."""

    def __init__(self, outdir: str | Path) -> None:
        self.path = Path(outdir) / LOCK_NAME
        self.fd: int | None = None

    def __enter__(self) -> OutdirLock:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            holder = self.path.read_text(encoding="ascii", errors="replace").strip() or "?"
            raise RunLocked(f"{self.path.parent}: another paranon run (pid {holder}) is writing there; "
                            "wait for it to end or stop it") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            self.path.unlink(missing_ok=True)
            os.close(self.fd)  # closing drops the flock
            self.fd = None


def clean_leftovers(outdir: str | Path) -> list[Path]:
    """Remove what killed runs left (call it holding the lock); returns what was removed."""
    outdir = Path(outdir)
    removed: list[Path] = []
    link = outdir / "index"
    current = link.resolve() if link.is_symlink() else None
    for p in outdir.glob("index-*"):
        if p.is_dir() and not p.is_symlink() and p.resolve() != current:
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    for p in outdir.glob(".index-link-*"):
        if p.is_symlink():
            p.unlink(missing_ok=True)
            removed.append(p)
    for p in outdir.glob(".*.part"):  # atomic_write's temporary files
        p.unlink(missing_ok=True)
        removed.append(p)
    tmp = Path(tempfile.gettempdir())
    for p in tmp.glob("paranon-eflomal-*"):
        m = EFLOMAL_TMP.match(p.name)
        if m and p.is_dir() and int(m.group(1)) != os.getpid() and not pid_alive(int(m.group(1))):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def die_with_parent() -> None:
    """For a forked worker: killed by the kernel when the parent dies (Linux), deaf to SIGINT, ended by
    SIGTERM."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool stops its workers with SIGTERM: no handler of
    # the parent's (``paranon run`` turns SIGTERM into an interruption) may run in them
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
