"""Word aligners behind one interface: eflomal (offline, learns from the corpus) and simalign (neural).

``align(pairs)`` takes tokenized sentence pairs and returns 0-based ``(i, j)``
links per pair. ``make_aligner(cfg)`` picks one: ``auto`` uses simalign when its
model loads from local files without a download, eflomal otherwise.
"""

from __future__ import annotations

import logging
import math
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import Any

from ..corpora.model import parse_pharaoh, pharaoh
from ..settings import Settings
from ..text import token_words
from .priors import PriorFiles
from .priors import resolve as resolve_priors
from .repair import dictionary_pairs, repair_files

log = logging.getLogger("paranon.align")

Links = list[tuple[int, int]]
MIN_ITERATIONS, MAX_ITERATIONS, ITERATION_SCALE = 5, 100, 1200  # eflomal_iterations: auto (see iterations_for)
SMALL_CORPUS = 2000  # eflomal_samplers: auto runs 3 samplers below this many lines, 1 from there
NULL_PRIOR = 0.2  # eflomal null_prior (its default); 0.1 raised recall on the EN-PT gold but linked "the" too (README)
PLACEHOLDER_NUMBER = re.compile(r"^<NAME\d+_")


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
            for s, t in zip(fs, ft, strict=True):
                batch.append((s.split(), t.split()))
                if len(batch) >= self.batch_size:
                    out.writelines(pharaoh(links) + "\n" for links in self.align(batch))
                    batch = []
            out.writelines(pharaoh(links) + "\n" for links in self.align(batch))


def _words_into(lines: Iterable[str], vocab: set[str]) -> Iterator[str]:
    """The lines unchanged, their lower-cased words added to ``vocab`` on the way."""
    for line in lines:
        vocab.update(line.lower().split())
        yield line


def grow_diag_final_and(fwd: set[tuple[int, int]], rev: set[tuple[int, int]], n_src: int, n_tgt: int) -> Links:
    """Koehn's grow-diag-final-and symmetrization of two directional alignments."""
    union = fwd | rev
    links = fwd & rev
    src_done = {i for i, _ in links}
    tgt_done = {j for _, j in links}
    # grow from the candidates' side (union minus links: a handful) instead of every link's neighbours
    candidates = sorted(union - links)
    added = True
    while added and candidates:
        added = False
        for c in candidates:
            ni, nj = c
            if c in links or (ni in src_done and nj in tgt_done):
                continue
            if ((ni - 1, nj) in links or (ni + 1, nj) in links or (ni, nj - 1) in links or (ni, nj + 1) in links
                    or (ni - 1, nj - 1) in links or (ni - 1, nj + 1) in links or (ni + 1, nj - 1) in links
                    or (ni + 1, nj + 1) in links):  # one of the eight neighbours is a link
                links.add(c)
                src_done.add(ni)
                tgt_done.add(nj)
                added = True
        candidates = [c for c in candidates if c not in links]
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


def symmetrize_lines(n_src: int, n_tgt: int, fwd_line: str, rev_line: str,
                     how: str = "grow-diag-final-and") -> Links:
    """One pair's links from its two directional Pharaoh lines (an empty side has none). The pipeline
    calls this in its transfer workers, so the pass over the corpus is spread over the cores."""
    if not n_src or not n_tgt:
        return []
    return symmetrize(set(parse_pharaoh(fwd_line)), set(parse_pharaoh(rev_line)), n_src, n_tgt, how)


class EflomalAligner(Aligner):
    """eflomal trained on the corpus being processed (plus optional extra parallel text), both directions.

    eflomal seeds its sampler from ``/dev/urandom``; with ``deterministic`` (the default) each direction
    runs one single-threaded sampler whose seed comes from ``seed`` (see :mod:`.determinism`), so the
    same corpus always gets the same links and a resumed run equals an uninterrupted one. The two
    directions run as two processes at once.
    """

    name = "eflomal"

    def __init__(self, *, extra_src: str | None, extra_tgt: str | None, iterations: int | str | None,
                 samplers: int | str, deterministic: bool, seed: int, symmetrization: str, prefix: int,
                 priors: PriorFiles | None, prior_alpha: float, languages: tuple[str, str],
                 priors_max_pairs: int) -> None:
        if symmetrization not in ("grow-diag-final-and", "union", "intersection"):
            raise ValueError(f"align.symmetrization: {symmetrization!r} is not grow-diag-final-and, union or "
                             "intersection")
        self.symmetrization = symmetrization
        self.prefix = prefix
        if not prior_alpha > 0:
            raise ValueError(f"align.prior_alpha: {prior_alpha!r} is not a positive number")
        self.priors, self.prior_alpha, self.languages = priors, prior_alpha, languages  # see .priors
        self.priors_max_pairs = priors_max_pairs  # a larger corpus teaches itself: no priors (0: always priors)
        self._normalized: dict[str, str] = {}  # word -> what eflomal sees of it (words recur)
        self.extra_src, self.extra_tgt = extra_src, extra_tgt
        for f in (extra_src, extra_tgt):
            if f and not Path(f).exists():
                raise ValueError(f"align.extra_src/extra_tgt: {f}: no such file")
        if not (iterations is None or iterations == "auto" or (isinstance(iterations, int) and iterations > 0)):
            raise ValueError(f"align.eflomal_iterations: {iterations!r} is not a positive number, auto or null")
        if not (samplers == "auto" or isinstance(samplers, int) and samplers > 0):
            raise ValueError(f"align.eflomal_samplers: {samplers!r} is not a positive number or auto")
        self.iterations = iterations
        self.samplers = samplers
        self.deterministic = deterministic
        self.seed = seed
        self.reproducible = False

    @staticmethod
    def arguments(settings: Settings) -> dict[str, Any]:
        """The constructor's arguments from the run's settings (``align``, ``anonymize.seed``, the languages):
        every one is a setting, and its default is ``defaults.yaml``'s."""
        a, langs = settings.align, (settings.src, settings.tgt)
        return {"extra_src": a.extra_src, "extra_tgt": a.extra_tgt, "iterations": a.eflomal_iterations,
                "samplers": a.eflomal_samplers, "deterministic": a.deterministic, "seed": settings.anonymize.seed,
                "symmetrization": a.symmetrization, "prefix": a.eflomal_prefix,
                "priors": resolve_priors(a.priors, *langs), "prior_alpha": float(a.prior_alpha),
                "languages": langs, "priors_max_pairs": a.priors_max_pairs}

    def iterations_for(self, n_lines: int) -> int | None:
        """Iterations per model for a corpus of ``n_lines`` pairs. ``auto`` follows eflomal's own rule (in
        proportion to 1/sqrt(lines)) at a quarter of its scale, between 5 and 100. Measured on the EN-PT gold
        with the DGT text (2,217 lines): 20 and 25 (auto) iterations give sure-link recall 0.781 and 0.773,
        eflomal's own 106 gives 0.75; with 42,000 lines 6, 10 and 20 give the same recall (0.771, 0.763,
        0.768), so big corpora get few; the 336-pair sample aligns its content words far better with 65 and
        3 samplers than with 20 and 1 (see the README)."""
        if self.iterations == "auto":
            return max(MIN_ITERATIONS, min(MAX_ITERATIONS, round(ITERATION_SCALE / math.sqrt(max(1, n_lines)))))
        return self.iterations

    def samplers_for(self, n_lines: int) -> int:
        """Independent samplers per direction: ``auto`` runs 3 on small corpora, where one sampler's links are
        noisy, and 1 from ``SMALL_CORPUS`` lines (on the EN-PT gold with DGT text 3 samplers are no better:
        recall 0.755 against 0.781)."""
        if self.samplers == "auto":
            return 3 if n_lines < SMALL_CORPUS else 1
        return self.samplers

    def _extra_lines(self) -> tuple[list[str], list[str]]:
        if not (self.extra_src and self.extra_tgt):
            return [], []
        src, tgt = [], []
        with open(self.extra_src, encoding="utf-8") as fs, open(self.extra_tgt, encoding="utf-8") as ft:
            for s, t in zip(fs, ft, strict=False):
                if s.strip() and t.strip():
                    # raw text is tokenized like the corpus (punctuation split off); tokenized text is unchanged
                    src.append(" ".join(token_words(s)) + "\n")
                    tgt.append(" ".join(token_words(t)) + "\n")
        return src, tgt

    def _prior_lines(self) -> list[str]:
        """eflomal LEX priors from the ``align.priors`` dictionary, its words normalized as the corpus's."""
        if self.priors is None:
            return []
        from .priors import prior_lines

        return prior_lines(self.priors.dictionary, lambda w: w.lower()[:self.prefix or None], self.prior_alpha,
                           self.priors.swap, *self.languages)

    def _link_lines(self) -> list[str]:
        """eflomal LEX priors from the shipped link counts of general text (``align.priors: builtin``)."""
        if self.priors is None or self.priors.links is None:
            return []
        from .priors import link_lines

        return link_lines(self.priors.links, lambda w: w.lower()[:self.prefix or None], self.prior_alpha,
                          self.priors.swap)

    def _identity_lines(self, vocab_s: set[str], vocab_t: set[str]) -> Iterator[str]:
        """eflomal LEX priors linking a word to the same word on the other side (names, numbers, codes)."""
        from .priors import identity_lines

        yield from identity_lines(vocab_s & vocab_t, lambda w: w.lower()[:self.prefix or None], self.prior_alpha,
                                  *self.languages)

    def _normalize(self, line: str) -> str:
        """What eflomal sees of a line: lower case, and with ``prefix`` only each word's first letters.

        Cutting words to a prefix is a crude stemmer that pools the counts of inflected forms
        (``contrato``/``contratos``, ``pay``/``payment``); it helps most on small corpora.
        """
        words = line.split()
        if not words:
            return "<empty>\n"
        seen = self._normalized
        if len(seen) > 1_000_000:
            seen.clear()
        for k, w in enumerate(words):
            got = seen.get(w)
            if got is None:  # a placeholder: its category, not its number, is what recurs
                got = seen[w] = PLACEHOLDER_NUMBER.sub("<", w) if w.startswith("<NAME") \
                    else w.lower()[:self.prefix or None]
            words[k] = got
        return " ".join(words) + "\n"

    def align_files(self, src_path: str | Path, tgt_path: str | Path, out_path: str | Path) -> None:
        """Align two token files (one pair per line, space-separated) and write Pharaoh links per line."""
        with tempfile.TemporaryDirectory(prefix=f"paranon-eflomal-{os.getpid()}-") as tmp:
            fwd, rev = os.path.join(tmp, "fwd"), os.path.join(tmp, "rev")
            self.align_directions(src_path, tgt_path, fwd, rev)
            with open(src_path, encoding="utf-8") as fs, open(tgt_path, encoding="utf-8") as ft, \
                    open(fwd, encoding="utf-8") as ff, open(rev, encoding="utf-8") as fr, \
                    open(out_path, "w", encoding="utf-8") as out:
                for s, t, f, r in zip(fs, ft, ff, fr, strict=False):
                    out.write(pharaoh(symmetrize_lines(len(s.split()), len(t.split()), f, r, self.symmetrization))
                              + "\n")

    def _prepare(self, src_path: str | Path, tgt_path: str | Path, tmp: str) -> tuple[int, bool, set[tuple[str, str]]]:
        """Write eflomal's input files into ``tmp`` (``src.bin``, ``tgt.bin``, ``priors.txt`` when priors are
        on: see ``priors_max_pairs``); return the number of lines, whether priors are on, and the dictionary's
        normalized pairs."""
        import eflomal

        extra_src, extra_tgt = self._extra_lines()
        priors = self.priors is not None and not (
            self.priors_max_pairs and _count_lines(src_path) > self.priors_max_pairs)
        dictionary = self._prior_lines() if priors else []
        vocab_s: set[str] = set()  # with priors: the words of each side, for the identical-word priors
        vocab_t: set[str] = set()
        n_lines = [0]

        def counted(lines: Iterable[str]) -> Iterator[str]:
            for line in lines:
                n_lines[0] += 1
                yield line

        with open(src_path, encoding="utf-8") as fs, open(tgt_path, encoding="utf-8") as ft, \
                open(os.path.join(tmp, "src.bin"), "wb") as so, open(os.path.join(tmp, "tgt.bin"), "wb") as to, \
                open(os.path.join(tmp, "priors.txt"), "w", encoding="utf-8") as po:
            raw_s, raw_t = chain(fs, extra_src), chain(ft, extra_tgt)
            if priors:
                raw_s, raw_t = _words_into(raw_s, vocab_s), _words_into(raw_t, vocab_t)
            norm_s = counted(self._normalize(line) for line in raw_s)
            norm_t = (self._normalize(line) for line in raw_t)
            # lazy: the identical words are known once eflomal has read both texts, before the priors
            lines = chain(dictionary, self._link_lines(), self._identity_lines(vocab_s, vocab_t)) if priors else None
            eflomal.Aligner().prepare_files(norm_s, so, norm_t, to, lines, po if priors else None)
        return n_lines[0], priors, dictionary_pairs(dictionary)

    def align_directions(self, src_path: str | Path, tgt_path: str | Path, fwd_path: str | Path,
                         rev_path: str | Path) -> None:
        """Train on two token files and write the forward and reverse links (Pharaoh, one line per pair;
        lines of ``extra_src``/``extra_tgt`` follow the corpus's), unsymmetrized; with dictionary priors,
        each pair's unaligned content words are then repaired from the dictionary (``repair.py``)."""
        import threading

        from eflomal.cython import align as run_eflomal

        from .determinism import seeded_environment

        with tempfile.TemporaryDirectory(prefix=f"paranon-eflomal-{os.getpid()}-") as tmp:
            n_lines, priors, dictionary = self._prepare(src_path, tgt_path, tmp)
            iterations = self.iterations_for(n_lines)
            kwargs: dict[str, Any] = {"model": 3, "score_model": 0, "n_samplers": self.samplers_for(n_lines),
                                      "quiet": True, "rel_iterations": 1.0, "null_prior": NULL_PRIOR,
                                      "priors_filename": os.path.join(tmp, "priors.txt") if priors else None}
            if iterations:
                kwargs["n_iterations"] = (iterations,) * 3
            errors: list[BaseException] = []

            def one(**links: str) -> None:
                try:
                    run_eflomal(os.path.join(tmp, "src.bin"), os.path.join(tmp, "tgt.bin"), **links, **kwargs)
                except BaseException as exc:  # noqa: BLE001  (re-raised below, in the calling thread)
                    errors.append(exc)

            with seeded_environment(self.seed if self.deterministic else None, tmp) as reproducible:
                self.reproducible = reproducible
                threads = [threading.Thread(target=one, kwargs={"links_filename_fwd": str(fwd_path)}),
                           threading.Thread(target=one, kwargs={"links_filename_rev": str(rev_path)})]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
            if errors:
                raise RuntimeError(f"eflomal failed: {errors[0]}")
        repair_files(src_path, tgt_path, fwd_path, rev_path, dictionary, lambda w: w.lower()[:self.prefix or None],
                     self.languages[0])

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        if not pairs:
            return []
        with tempfile.TemporaryDirectory(prefix=f"paranon-eflomal-{os.getpid()}-") as tmp:
            sp, tp, op = (os.path.join(tmp, n) for n in ("s", "t", "o"))
            with open(sp, "w", encoding="utf-8") as fs, open(tp, "w", encoding="utf-8") as ft:
                for s, t in pairs:
                    fs.write(" ".join(s) + "\n")
                    ft.write(" ".join(t) + "\n")
            self.align_files(sp, tp, op)
            with open(op, encoding="utf-8") as fh:
                return [sorted(set(parse_pharaoh(line))) for line in fh]


class SimAligner(Aligner):
    """simalign over a multilingual encoder loaded by name or local path; never downloads unless allowed.

    simalign's own ``get_word_aligns`` runs the encoder once per pair; here the encoder runs once per
    batch of ``batch_size`` sentences (padded), and simalign's matching functions (``iter_max``,
    ``get_max_weight_match``, the argmax intersection) are applied per pair to the similarity matrix,
    so the links are the same as simalign's, only faster.
    """

    name = "simalign"
    MAX_SUBWORDS = 500  # the encoder window is 512 positions, two of them [CLS]/[SEP]

    def __init__(self, model: str, matching: str, layer: int, batch_size: int,
                 allow_download: bool, device: str = "cpu") -> None:
        if not allow_download:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from simalign import SentenceAligner

        if matching not in ("itermax", "mwmf", "inter"):
            raise ValueError(f"align.matching: {matching!r} is not itermax, mwmf or inter")
        self.matching = matching
        self.aligner = SentenceAligner(model=model, token_type="bpe", matching_methods=matching[0] if
                                       matching != "inter" else "a", device=device, layer=layer)
        self.tokenizer = self.aligner.embed_loader.tokenizer
        self.batch_size = batch_size

    def _pieces(self, words: list[str]) -> list[list[str]]:
        """Subwords per word; a word the tokenizer turns into nothing (a lone soft hyphen) becomes ``-``."""
        out = []
        for w in words:
            p = self.tokenizer.tokenize(w)
            out.append(p or self.tokenizer.tokenize("-"))
        return out

    def _chunks(self, pieces: list[list[str]]) -> list[tuple[int, int]]:
        """Word ranges of at most MAX_SUBWORDS subwords each: long sentences are split, never truncated."""
        parts, start, n = [], 0, 0
        for k, p in enumerate(pieces):
            if k > start and n + len(p) > self.MAX_SUBWORDS:
                parts.append((start, k))
                start, n = k, 0
            n += len(p)
        parts.append((start, len(pieces)))
        return parts

    def _embed(self, sents: list[list[list[str]]]) -> list[Any]:
        """Subword vectors for each sentence (given as subword lists per word), one encoder call per batch."""
        import torch

        loader = self.aligner.embed_loader
        tok = self.tokenizer
        out: list[Any] = []
        for b in range(0, len(sents), self.batch_size):
            batch = sents[b:b + self.batch_size]
            ids = [tok.convert_tokens_to_ids([p for w in s for p in w]) for s in batch]
            width = max(len(i) for i in ids) + 2
            input_ids = torch.full((len(ids), width), tok.pad_token_id or 0, dtype=torch.long)
            mask = torch.zeros((len(ids), width), dtype=torch.long)
            for r, i in enumerate(ids):
                row = [tok.cls_token_id, *i, tok.sep_token_id]
                input_ids[r, :len(row)] = torch.tensor(row)
                mask[r, :len(row)] = 1
            with torch.no_grad():
                hidden = loader.emb_model(input_ids=input_ids.to(loader.device),
                                          attention_mask=mask.to(loader.device))["hidden_states"]
            if loader.layer >= len(hidden):
                raise ValueError(f"align.layer {loader.layer}: the model has only {len(hidden) - 1} layers")
            vec = hidden[loader.layer].cpu().numpy()
            out.extend(vec[r, 1:1 + len(i)] for r, i in enumerate(ids))
        return out

    def _match(self, sim: Any) -> Any:
        sa = self.aligner
        if self.matching == "itermax":
            return sa.iter_max(sim)
        if self.matching == "mwmf":
            return sa.get_max_weight_match(sim)
        fwd, rev = sa.get_alignment_matrix(sim)
        return fwd * rev

    def align(self, pairs: list[tuple[list[str], list[str]]]) -> list[Links]:
        import numpy as np

        # every pair becomes one or more (source part, target part) jobs; long pairs are split into parts
        # paired proportionally
        jobs: list[tuple[int, int, int, list[list[str]], list[list[str]]]] = []
        for n, (src, tgt) in enumerate(pairs):
            if not src or not tgt:
                continue
            sp, tp = self._pieces(src), self._pieces(tgt)
            sc, tc = self._chunks(sp), self._chunks(tp)
            for k, (s0, s1) in enumerate(sc):
                t0, t1 = tc[min(len(tc) - 1, k * len(tc) // len(sc))]
                jobs.append((n, s0, t0, sp[s0:s1], tp[t0:t1]))
        vecs = self._embed([s for j in jobs for s in (j[3], j[4])])
        links: list[set[tuple[int, int]]] = [set() for _ in pairs]
        for k, (n, s0, t0, sw, tw) in enumerate(jobs):
            sim = self.aligner.get_similarity(vecs[2 * k], vecs[2 * k + 1])
            s_map = [i for i, w in enumerate(sw) for _ in w]
            t_map = [j for j, w in enumerate(tw) for _ in w]
            for i, j in zip(*np.nonzero(self._match(sim)), strict=True):
                links[n].add((s0 + s_map[i], t0 + t_map[j]))
        return [sorted(x) for x in links]


def model_available_locally(model: str) -> bool:
    if Path(model).is_dir():
        return True
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(model, "config.json"), str)
    except Exception:  # noqa: BLE001  (no hub library or no cache: not available)
        return False


def _count_lines(path: str | Path) -> int:
    with open(path, "rb") as fh:
        return sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))


def make_aligner(cfg: Settings | dict[str, Any]) -> tuple[Aligner, str]:
    """The configured aligner (``align`` settings) and a one-line reason for the choice (for the log and
    report)."""
    settings = Settings.of(cfg)
    a = settings.align
    method = a.method
    if method not in ("auto", "simalign", "eflomal"):
        raise ValueError(f"align.method: {method!r} is not auto, simalign or eflomal")
    eflo = lambda: EflomalAligner(**EflomalAligner.arguments(settings))  # noqa: E731
    if method == "eflomal":
        return eflo(), "eflomal (configured)"
    if method == "auto" and not a.allow_download and not model_available_locally(a.model):
        return eflo(), f"eflomal (auto: simalign model {a.model!r} is not available locally)"
    try:
        al = SimAligner(a.model, a.matching, a.layer, a.batch_size, a.allow_download)
        return al, f"simalign ({a.model}, {a.matching})"
    except Exception as exc:  # noqa: BLE001
        if method == "simalign":
            raise ValueError(f"align.method simalign: cannot load model {a.model!r}: {exc}") from None
        return eflo(), f"eflomal (auto: simalign failed to load: {type(exc).__name__})"
