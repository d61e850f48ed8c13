"""What indexing a pair makes of its line alone, kept for the next build of the same index part.

A pair's tantivy document is its line of ``corpus.jsonl`` made into fields (the record parsed, its tokens
and links, its words folded: nine tenths of indexing it, ``tantivy_index.record_fields``) plus its place in the
corpus (its corpus number, its duplicate group's lead and rank). The fields depend on the line alone, so
each part keeps them by a digest of the line (``PREP_DIR/part-K.pkl``, in the run's private checkpoint): when
``paranon apply`` indexes a part again (``index_update``), only the lines whose digest is not there are parsed
and folded again; the others' documents are made from the kept fields, the same documents as a build's.

The cache is keyed by content: a file left by an apply that did not finish still gives each line its own
fields. A missing or unreadable file is an empty cache (every line parsed). Each part's file holds the lines
of its last build only.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

PREP_DIR = "index-prep"  # beside the index state, in the run's checkpoint

Fields = tuple  # tantivy_index.record_fields: (id, doc, categories, src terms, tgt terms, packed tokens)


def line_digest(line: bytes) -> bytes:
    """A line's key (``index_update.line_digests`` uses the same digest)."""
    return hashlib.blake2b(line, digest_size=16).digest()


def prep_folder(state: Path | str | None) -> Path | None:
    """The parts' files beside the index state (``index_update.STATE_FILE``); none without a state."""
    return None if state is None else Path(state).parent / PREP_DIR


def prep_path(folder: Path | str | None, k: int) -> str | None:
    return None if folder is None else str(Path(folder) / f"part-{k:03d}.pkl")


def load_fields(path: str | None) -> dict[bytes, Fields]:
    """The fields a part's last build kept (none: an empty cache)."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            got = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
        return {}
    return got if isinstance(got, dict) else {}


def save_fields(path: str | None, fields: dict[bytes, Fields]) -> None:
    """Written owner-only under a temporary name, renamed into place."""
    if path is None:
        return
    Path(path).parent.mkdir(mode=0o700, exist_ok=True)
    part = f"{path}.part"
    with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as fh:
        pickle.dump(fields, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(part, path)
