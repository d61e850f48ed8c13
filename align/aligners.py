"""Word aligners behind one interface: eflomal (offline, learns from the corpus) and simalign (neural).

``align(pairs)`` takes tokenized sentence pairs and returns 0-based ``(i, j)``
links per pair. ``make_aligner(cfg)`` picks one: ``auto`` uses simalign when its
model loads from local files without a download, eflomal otherwise.
"""

from __future__ import annotations

import logging
import os
import tempfile
from itertools import chain
from pathlib import Path
from typing import Any

from ..corpora.model import parse_pharaoh, pharaoh
from .transfer import token_words

log = logging.getLogger("paranon.align")

Links = list[tuple[int, int]]


class Aligner:
    name = "base"
    batch_size = 256
    reproducible = True

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        raise NotImplementedError

    def align_files(self, src_path: str | Path, tgt_path: str | Path, out_path: str | Path) -> None:
        """Align two token files (one pair per line, space-separated), writing Pharaoh links per line.

        Streams in batches, so memory stays flat; aligners that learn from the whole corpus override it.
        """
        with open(src_path, encoding="utf-8") as fs, open(tgt_path, encoding="utf-8") as ft, \
                open(out_path, "w", encoding="utf-8") as out:
            batch: list[tuple[list[str], list[str]]] = []
            for s, t in chain(zip(fs, ft, strict=True), [None]):  # type: ignore[list-item]
                if s is not None:
                    batch.append((s.split(), t.split()))  # type: ignore[union-attr]
                if batch and (s is None or len(batch) >= self.batch_size):
                    for links in self.align(batch):
                        out.write(pharaoh(links) + "\n")
                    batch = []


def grow_diag_final_and(fwd: set[tuple[int, int]], rev: set[tuple[int, int]], n_src: int, n_tgt: int) -> Links:
    """Koehn's grow-diag-final-and symmetrization of two directional alignments."""
    union = fwd | rev
    links = fwd & rev
    src_done = {i for i, _ in links}
    tgt_done = {j for _, j in links}
    neigh = [(-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1)]
    added = True
    while added:
        added = False
        for i, j in sorted(links):
            for di, dj in neigh:
                ni, nj = i + di, j + dj
                if 0 <= ni < n_src and 0 <= nj < n_tgt and (ni, nj) in union and (ni, nj) not in links \
                        and (ni not in src_done or nj not in tgt_done):
                    links.add((ni, nj))
                    src_done.add(ni)
                    tgt_done.add(nj)
                    added = True
    for directional in (fwd, rev):
        for i, j in sorted(directional):
            if i not in src_done and j not in tgt_done:
                links.add((i, j))
                src_done.add(i)
                tgt_done.add(j)
    return sorted(links)


def symmetrize(fwd: set[tuple[int, int]], rev: set[tuple[int, int]], n_src: int, n_tgt: int,
               how: str = "grow-diag-final-and") -> Links:
    if how == "union":
        return sorted(fwd | rev)
    if how == "intersection":
        return sorted(fwd & rev)
    return grow_diag_final_and(fwd, rev, n_src, n_tgt)


class EflomalAligner(Aligner):
    """eflomal trained on the corpus being processed (plus optional extra parallel text), both directions.

    eflomal seeds its sampler from ``/dev/urandom``; with ``deterministic`` (the default) each direction
    runs one single-threaded sampler whose seed comes from ``seed`` (see :mod:`.determinism`), so the
    same corpus always gets the same links and a resumed run equals an uninterrupted one. The two
    directions run as two processes at once.
    """

    name = "eflomal"

    def __init__(self, extra_src: str | None = None, extra_tgt: str | None = None,
                 iterations: int | None = None, samplers: int = 1, deterministic: bool = True,
                 seed: int = 0, symmetrization: str = "grow-diag-final-and") -> None:
        if symmetrization not in ("grow-diag-final-and", "union", "intersection"):
            raise ValueError(f"align.symmetrization: {symmetrization!r} is not grow-diag-final-and, union or "
                             "intersection")
        self.symmetrization = symmetrization
        self.extra_src, self.extra_tgt = extra_src, extra_tgt
        for f in (extra_src, extra_tgt):
            if f and not Path(f).exists():
                raise ValueError(f"align.extra_src/extra_tgt: {f}: no such file")
        self.iterations = iterations
        self.samplers = samplers
        self.deterministic = deterministic
        self.seed = seed
        self.reproducible = False

    def _extra_lines(self) -> tuple[list[str], list[str]]:
        if not (self.extra_src and self.extra_tgt):
            return [], []
        src, tgt = [], []
        with open(self.extra_src, encoding="utf-8") as fs, open(self.extra_tgt, encoding="utf-8") as ft:
            for s, t in zip(fs, ft, strict=False):
                if s.strip() and t.strip():
                    # raw text is tokenized like the corpus (punctuation split off); tokenized text is unchanged
                    src.append(" ".join(token_words(s.lower())) + "\n")
                    tgt.append(" ".join(token_words(t.lower())) + "\n")
        return src, tgt

    def align_files(self, src_path: str | Path, tgt_path: str | Path, out_path: str | Path) -> None:
        """Align two token files (one pair per line, space-separated) and write Pharaoh links per line."""
        import threading

        import eflomal
        from eflomal.cython import align as run_eflomal

        from .determinism import seeded_environment

        extra_src, extra_tgt = self._extra_lines()
        with tempfile.TemporaryDirectory(prefix="paranon-eflomal-") as tmp:
            s_in, t_in = os.path.join(tmp, "src.bin"), os.path.join(tmp, "tgt.bin")
            with open(src_path, encoding="utf-8") as fs, open(tgt_path, encoding="utf-8") as ft, \
                    open(s_in, "wb") as so, open(t_in, "wb") as to:
                lower_s = (line.lower() if line.strip() else "<empty>\n" for line in fs)
                lower_t = (line.lower() if line.strip() else "<empty>\n" for line in ft)
                eflomal.Aligner().prepare_files(chain(lower_s, extra_src), so, chain(lower_t, extra_tgt), to,
                                                None, None)
            fwd, rev = os.path.join(tmp, "fwd"), os.path.join(tmp, "rev")
            kwargs: dict[str, Any] = {"model": 3, "score_model": 0, "n_samplers": self.samplers, "quiet": True,
                                      "rel_iterations": 1.0, "null_prior": 0.2}
            if self.iterations:
                kwargs["n_iterations"] = (self.iterations,) * 3
            errors: list[BaseException] = []

            def one(**links: str) -> None:
                try:
                    run_eflomal(s_in, t_in, **links, **kwargs)
                except BaseException as exc:  # noqa: BLE001  (re-raised below, in the calling thread)
                    errors.append(exc)

            with seeded_environment(self.seed if self.deterministic else None, tmp) as reproducible:
                self.reproducible = reproducible
                threads = [threading.Thread(target=one, kwargs={"links_filename_fwd": fwd}),
                           threading.Thread(target=one, kwargs={"links_filename_rev": rev})]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
            if errors:
                raise RuntimeError(f"eflomal failed: {errors[0]}")
            with open(src_path, encoding="utf-8") as fs, open(tgt_path, encoding="utf-8") as ft, \
                    open(fwd, encoding="utf-8") as ff, open(rev, encoding="utf-8") as fr, \
                    open(out_path, "w", encoding="utf-8") as out:
                for s, t, f, r in zip(fs, ft, ff, fr, strict=False):
                    n_s, n_t = len(s.split()), len(t.split())
                    if not n_s or not n_t:
                        out.write("\n")
                        continue
                    links = symmetrize(set(parse_pharaoh(f)), set(parse_pharaoh(r)), n_s, n_t, self.symmetrization)
                    out.write(pharaoh(links) + "\n")

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        if not pairs:
            return []
        with tempfile.TemporaryDirectory(prefix="paranon-eflomal-") as tmp:
            sp, tp, op = (os.path.join(tmp, n) for n in ("s", "t", "o"))
            with open(sp, "w", encoding="utf-8") as fs, open(tp, "w", encoding="utf-8") as ft:
                for s, t in pairs:
                    fs.write(" ".join(s) + "\n")
                    ft.write(" ".join(t) + "\n")
            self.align_files(sp, tp, op)
            with open(op, encoding="utf-8") as fh:
                return [sorted(set(parse_pharaoh(line))) for line in fh]


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
    eflo = lambda: EflomalAligner(a.get("extra_src"), a.get("extra_tgt"), a.get("eflomal_iterations"),  # noqa: E731
                                  int(a.get("eflomal_samplers", 1)), bool(a.get("deterministic", True)),
                                  int(cfg["anonymize"].get("seed", 0)),
                                  a.get("symmetrization", "grow-diag-final-and"))
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
