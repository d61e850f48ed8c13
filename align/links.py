"""Word links carried from the original target's tokens to the anonymized target's."""

from __future__ import annotations

from bisect import bisect_right

from ..corpora.model import remap_offsets
from ..text import tokenize


def map_links(links: list[tuple[int, int]], old_tokens: list[tuple[int, int]], new_text: str,
              replacements: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """Target-side links over the original tokens -> links over the anonymized tokens."""
    new_tokens = tokenize(new_text)
    if not replacements and new_tokens == old_tokens:  # nothing replaced (most targets): token k is token k
        n = len(old_tokens)
        return sorted({(i, j) for i, j in links if j < n})
    starts = {s: k for k, (s, _) in enumerate(new_tokens)}
    start_list = [s for s, _ in new_tokens]
    ends: dict[int, int] = {}
    for k, (_, e) in enumerate(new_tokens):
        ends.setdefault(e, k)
    mapping: dict[int, int] = {}
    for k, ns in enumerate(remap_offsets((s for s, _ in old_tokens), replacements)):
        if ns in starts:
            mapping[k] = starts[ns]
            continue
        # inside a placeholder: the token that spans the new offset (found by bisection: tokens are in order)
        nk = bisect_right(start_list, ns) - 1
        if nk >= 0 and ns < new_tokens[nk][1]:
            mapping[k] = nk
        elif new_tokens and ns == new_tokens[-1][1]:
            mapping[k] = len(new_tokens) - 1
        elif ns in ends:  # the token moved to the end of a replacement: the token ending there
            mapping[k] = ends[ns]
    return sorted({(i, mapping[j]) for i, j in links if j in mapping})
