"""The public output files: each chunk written into its part files (``.work/out-K.*``), and the final files
concatenated from the parts, each renamed into place only when complete, with the key store."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

from .align.pharaoh import moses_links
from .anonymize.keystore import KeyStore
from .corpora.formats import JsonlWriter, TmxWriter, TsvWriter, atomic_write
from .corpora.model import AnonymizedPair, pharaoh

PARTS = ("jsonl", "tmx", "src", "tgt", "tsv", "pharaoh")


def final_names(src_lang: str, tgt_lang: str) -> dict[str, str]:
    """Part extension -> the final file it goes into."""
    return {"jsonl": "corpus.jsonl", "tmx": "corpus.tmx", "src": f"corpus.{src_lang}",
            "tgt": f"corpus.{tgt_lang}", "tsv": "corpus.tsv", "pharaoh": "alignments.pharaoh"}


class PartWriters:
    """The six output formats for one chunk, written to ``.work/out-K.*`` (``work`` None: kept in memory, read
    by :meth:`text`: the records ``paranon apply`` splices into a chunk's parts)."""

    def __init__(self, work: Path | None, k: int, src_lang: str, tgt_lang: str) -> None:
        self.paths = {ext: work / f"out-{k:06d}.{ext}.part" for ext in PARTS} if work is not None else {}
        self.fh = {ext: open(p, "w", encoding="utf-8", newline="") for ext, p in self.paths.items()} \
            if work is not None else {ext: io.StringIO(newline="") for ext in PARTS}
        self.jw = JsonlWriter(self.fh["jsonl"])
        self.xw = TmxWriter.body_only(self.fh["tmx"], src_lang, tgt_lang)
        self.vw = TsvWriter(self.fh["tsv"], src_lang, tgt_lang, header=False)

    def write(self, ap: AnonymizedPair) -> None:
        self.jw.write(ap)
        self.xw.write(ap)
        self.vw.write(ap)
        self.fh["src"].write(ap.src.replace("\n", " ") + "\n")
        self.fh["tgt"].write(ap.tgt.replace("\n", " ") + "\n")
        self.fh["pharaoh"].write(pharaoh(moses_links(ap.src, ap.tgt, ap.alignment)) + "\n")

    def text(self, ext: str) -> str:
        return self.fh[ext].getvalue()

    def commit(self) -> None:
        for ext, fh in self.fh.items():
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
            os.replace(self.paths[ext], self.paths[ext].with_suffix(""))


def assemble(outdir: Path, work: Path, n_chunks: int, src_lang: str, tgt_lang: str) -> None:
    """Concatenate the parts into the final files, each renamed into place when complete; then the key store."""
    for ext, name in final_names(src_lang, tgt_lang).items():
        with atomic_write(outdir / name) as out:
            if ext == "tmx":
                TmxWriter.write_header(out, src_lang, tgt_lang)
            elif ext == "tsv":
                TsvWriter.write_header(out, src_lang, tgt_lang)
            for k in range(n_chunks):
                with open(work / f"out-{k:06d}.{ext}", encoding="utf-8", newline="") as fh:
                    shutil.copyfileobj(fh, out, 1 << 20)
            if ext == "tmx":
                TmxWriter.write_footer(out)
    final = outdir / ".keys.sqlite.part"
    shutil.copyfile(work / "keys.sqlite", final)
    final.chmod(0o600)
    KeyStore.finalize(final)
    os.replace(final, outdir / "keys.sqlite")
