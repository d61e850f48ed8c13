"""The cyclic garbage collector's settings for long passes over a corpus."""

from __future__ import annotations

import gc


def quiet_gc() -> None:
    """Freeze what exists and collect young objects less often. The lexicons and rules are hundreds of
    thousands of long-lived objects that the cyclic collector would walk again and again while the stages
    make millions of short-lived ones (about a tenth of the anonymize stage's time; a twentieth of an index
    part's); frozen objects also stay shared, untouched, between forked workers."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
