"""Word aligners behind one interface: eflomal (offline, learns from the corpus) and simalign (neural).

``align(pairs)`` takes tokenized sentence pairs and returns 0-based ``(i, j)``
links per pair. ``make_aligner(cfg)`` picks one: ``auto`` uses simalign when its
model loads from local files without a download, eflomal otherwise.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger("paranon.align")

Links = list[tuple[int, int]]


class Aligner:
    name = "base"

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        raise NotImplementedError


def grow_diag_final_and(fwd: set[tuple[int, int]], rev: set[tuple[int, int]], n_src: int, n_tgt: int) -> Links:
    """Koehn's grow-diag-final-and symmetrization of two directional alignments."""
    union = fwd | rev
    links = fwd & rev
    neigh = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]

    def src_aligned(i: int) -> bool:
        return any(a == i for a, _ in links)

    def tgt_aligned(j: int) -> bool:
        return any(b == j for _, b in links)

    added = True
    while added:
        added = False
        for i, j in sorted(links):
            for di, dj in neigh:
                ni, nj = i + di, j + dj
                if 0 <= ni < n_src and 0 <= nj < n_tgt and (ni, nj) in union and (ni, nj) not in links:
                    if not src_aligned(ni) or not tgt_aligned(nj):
                        links.add((ni, nj))
                        added = True
    for directional in (fwd, rev):
        for i, j in sorted(directional):
            if not src_aligned(i) and not tgt_aligned(j):
                links.add((i, j))
    return sorted(links)


def _read_links(path: str) -> list[set[tuple[int, int]]]:
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            links = set()
            for item in line.split():
                a, b = item.split("-")
                links.add((int(a), int(b)))
            out.append(links)
    return out


class EflomalAligner(Aligner):
    """eflomal trained on the corpus being processed (plus optional extra parallel text), both directions."""

    name = "eflomal"

    def __init__(self, extra_src: str | None = None, extra_tgt: str | None = None,
                 iterations: int | None = None, seed_note: str = "") -> None:
        self.extra: list[tuple[list[str], list[str]]] = []
        if extra_src and extra_tgt:
            with open(extra_src, encoding="utf-8") as fs, open(extra_tgt, encoding="utf-8") as ft:
                for s, t in zip(fs, ft, strict=False):
                    if s.strip() and t.strip():
                        self.extra.append((s.split(), t.split()))
        self.iterations = iterations

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        import eflomal

        if not pairs:
            return []
        data = [(s or ["<empty>"], t or ["<empty>"]) for s, t in pairs] + self.extra
        with tempfile.TemporaryDirectory(prefix="paranon-eflomal-") as tmp:
            fwd, rev = os.path.join(tmp, "fwd"), os.path.join(tmp, "rev")
            src_lines = [" ".join(w.lower() for w in s) + "\n" for s, _ in data]
            tgt_lines = [" ".join(w.lower() for w in t) + "\n" for _, t in data]
            aligner = eflomal.Aligner(n_iterations=self.iterations) if self.iterations else eflomal.Aligner()
            aligner.align(src_lines, tgt_lines, links_filename_fwd=fwd, links_filename_rev=rev, quiet=True)
            f_links, r_links = _read_links(fwd), _read_links(rev)
        out = []
        for k, (s, t) in enumerate(pairs):
            if not s or not t:
                out.append([])
                continue
            out.append(grow_diag_final_and(f_links[k], r_links[k], len(s), len(t)))
        return out


class SimAligner(Aligner):
    """simalign over a multilingual encoder loaded by name or local path; never downloads unless allowed."""

    name = "simalign"
    MAX_SUBWORDS = 500

    def __init__(self, model: str, matching: str = "itermax", layer: int = 8, batch_size: int = 32,
                 allow_download: bool = False, device: str = "cpu") -> None:
        if not allow_download:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from simalign import SentenceAligner

        method = {"itermax": "i", "mwmf": "m", "inter": "a"}[matching]
        self.key = {"i": "itermax", "m": "mwmf", "a": "inter"}[method]
        self.aligner = SentenceAligner(model=model, token_type="bpe", matching_methods=method, device=device,
                                       layer=layer)
        self.tokenizer = self.aligner.embed_loader.tokenizer
        self.batch_size = batch_size

    def _chunks(self, words: list[str]) -> list[tuple[int, list[str]]]:
        """Split a long sentence so that no part exceeds the encoder's window (never silently truncated)."""
        parts, cur, cur_len, start = [], [], 0, 0
        for k, w in enumerate(words):
            n = max(1, len(self.tokenizer.tokenize(w)))
            if cur and cur_len + n > self.MAX_SUBWORDS:
                parts.append((start, cur))
                cur, cur_len, start = [], 0, k
            cur.append(w)
            cur_len += n
        parts.append((start, cur))
        return parts

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        out = []
        for src, tgt in pairs:
            # words the tokenizer turns into nothing (a lone soft hyphen) get a stand-in so indices stay put
            s = [w if self.tokenizer.tokenize(w) else "-" for w in src]
            t = [w if self.tokenizer.tokenize(w) else "-" for w in tgt]
            if not s or not t:
                out.append([])
                continue
            sp, tp = self._chunks(s), self._chunks(t)
            links: set[tuple[int, int]] = set()
            if len(sp) == 1 and len(tp) == 1:
                res = self.aligner.get_word_aligns(s, t)
                links |= set(res[self.key])
            else:  # pair the parts proportionally
                for k, (so, sw) in enumerate(sp):
                    to, tw = tp[min(len(tp) - 1, k * len(tp) // len(sp))]
                    res = self.aligner.get_word_aligns(sw, tw)
                    links |= {(so + i, to + j) for i, j in res[self.key]}
            out.append(sorted(links))
        return out


def model_available_locally(model: str) -> bool:
    if Path(model).is_dir():
        return True
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(model, "config.json"), str)
    except Exception:  # noqa: BLE001  (no hub library or no cache: not available)
        return False


def make_aligner(cfg: dict[str, Any]) -> tuple[Aligner, str]:
    """The configured aligner and a one-line reason for the choice (for the log and report)."""
    a = cfg["align"]
    method = a.get("method", "auto")
    if method not in ("auto", "simalign", "eflomal"):
        raise ValueError(f"align.method: {method!r} is not auto, simalign or eflomal")
    eflo = lambda: EflomalAligner(a.get("extra_src"), a.get("extra_tgt"), a.get("eflomal_iterations"))  # noqa: E731
    if method == "eflomal":
        return eflo(), "eflomal (configured)"
    if method == "auto" and not a.get("allow_download") and not model_available_locally(a["model"]):
        return eflo(), f"eflomal (auto: simalign model {a['model']!r} is not available locally)"
    try:
        al = SimAligner(a["model"], a.get("matching", "itermax"), int(a.get("layer", 8)),
                        int(a.get("batch_size", 32)), bool(a.get("allow_download")))
        return al, f"simalign ({a['model']}, {a.get('matching', 'itermax')})"
    except Exception as exc:  # noqa: BLE001
        if method == "simalign":
            raise ValueError(f"align.method simalign: cannot load model {a['model']!r}: {exc}") from None
        return eflo(), f"eflomal (auto: simalign failed to load: {type(exc).__name__})"
