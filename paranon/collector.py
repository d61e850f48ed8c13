"""The cyclic garbage collector's settings for long passes over a corpus."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def quiet_gc() -> None:
    """Freeze what exists and collect young objects less often. The lexicons and rules are hundreds of
    thousands of long-lived objects that the cyclic collector would walk again and again while the stages
    make millions of short-lived ones (about a tenth of the anonymize stage's time; a twentieth of an index
    part's); frozen objects also stay shared, untouched, between forked workers."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection inside: for a pass that loads a corpus's checkpoints and keeps them (``paranon
    apply``: each collection walked every object loaded so far, 6 of its 9 transfer seconds on 40,000 pairs;
    what it makes holds no reference cycle worth collecting)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
