"""Reproducible eflomal runs.

eflomal's binary seeds its sampler from ``/dev/urandom`` and has no seed option.
To get the same links for the same corpus (so a resumed run equals an
uninterrupted one and ``--workers`` never changes the output) we preload a tiny
shared library that answers the binary's ``fopen("/dev/urandom")`` with a file
of bytes derived from the configured seed, and run it single-threaded
(``OMP_NUM_THREADS=1``; several OpenMP samplers would add their counts in a
nondeterministic order). The library is compiled once with the system C
compiler into the user's cache folder. Without a compiler, or off Linux, the run
goes on unseeded and says so.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

log = logging.getLogger("paranon.align")

SHIM_SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
FILE *fopen(const char *path, const char *mode) {
    static FILE *(*real)(const char *, const char *) = NULL;
    if (!real) real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
    const char *seeded = getenv("PARANON_SEED_FILE");
    if (path && seeded && strcmp(path, "/dev/urandom") == 0) return real(seeded, mode);
    return real(path, mode);
}
"""


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paranon"


def seed_shim() -> Path | None:
    """Path of the compiled preload library, building it on first use; None when it cannot be built."""
    if not sys.platform.startswith("linux"):
        return None
    digest = hashlib.sha256(SHIM_SOURCE.encode()).hexdigest()[:12]
    lib = _cache_dir() / f"seed-shim-{digest}.so"
    if lib.exists():
        return lib
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        return None
    lib.parent.mkdir(parents=True, exist_ok=True)
    src = lib.with_suffix(".c")
    src.write_text(SHIM_SOURCE, encoding="utf-8")
    tmp = lib.with_suffix(f".{os.getpid()}.tmp")
    res = subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(tmp), str(src), "-ldl"],
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        log.warning("cannot build the eflomal seed library (%s); alignment will not be reproducible",
                    res.stderr.strip().splitlines()[-1:] or res.returncode)
        return None
    os.replace(tmp, lib)
    return lib


def seed_bytes(seed: int, n: int = 4096) -> bytes:
    out, block = bytearray(), hashlib.sha256(f"paranon-eflomal-{seed}".encode()).digest()
    while len(out) < n:
        out += block
        block = hashlib.sha256(block).digest()
    return bytes(out[:n])


@contextmanager
def seeded_environment(seed: int | None, workdir: str | Path) -> Iterator[bool]:
    """Environment for eflomal child processes; yields whether the run is reproducible."""
    lib = seed_shim() if seed is not None else None
    if lib is None:
        if seed is not None:
            log.warning("eflomal runs unseeded: outputs may differ between runs")
        yield False
        return
    seed_file = Path(workdir) / "seed.bin"
    seed_file.write_bytes(seed_bytes(seed))
    saved = {k: os.environ.get(k) for k in ("LD_PRELOAD", "PARANON_SEED_FILE", "OMP_NUM_THREADS")}
    os.environ["LD_PRELOAD"] = " ".join(x for x in (str(lib), saved["LD_PRELOAD"]) if x)
    os.environ["PARANON_SEED_FILE"] = str(seed_file)
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        yield True
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
