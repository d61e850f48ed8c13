"""Stage 3: word alignment of (anonymized source, original target) tokens over the whole corpus, once."""

from __future__ import annotations

import logging
import os
import shutil
from typing import Any

from .align.aligners import EflomalAligner, make_aligner
from .workdir import WorkDir

log = logging.getLogger("paranon")


def run_align(cfg: dict[str, Any], work: WorkDir, n_chunks: int) -> dict[str, Any]:
    """An aligner with directions (eflomal) leaves ``links.fwd`` and ``links.rev``, symmetrized pair by pair in
    the transfer workers; any other writes ``links.pharaoh``. Returns the done record: the aligner's
    description, and ``symmetrization`` for an aligner with directions."""
    done = work.done("align")
    if done is not None:
        return done
    aligner, why = make_aligner(cfg)
    log.info("aligner: %s", why)
    src_tok, tgt_tok = work / "tokens.src", work / "tokens.tgt"
    for side, path in (("src", src_tok), ("tgt", tgt_tok)):
        with open(path, "w", encoding="utf-8") as out:
            for k in range(n_chunks):
                with open(work / WorkDir.chunk("tok", k, side), encoding="utf-8") as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
    done = {}
    if isinstance(aligner, EflomalAligner):
        aligner.align_directions(src_tok, tgt_tok, work / "links.fwd.part", work / "links.rev.part")
        os.replace(work / "links.fwd.part", work / "links.fwd")
        os.replace(work / "links.rev.part", work / "links.rev")
        done["symmetrization"] = aligner.symmetrization
    else:
        tmp = work / "links.pharaoh.part"
        aligner.align_files(src_tok, tgt_tok, tmp)
        os.replace(tmp, work / "links.pharaoh")
    if not aligner.reproducible:
        why += " [unseeded: links may differ between runs]"
    done["aligner"] = why
    work.mark_done("align", done)
    return done
