"""``keys.sqlite``: the private map from entity numbers to original strings. SECRET: never publish it.

It is the only file paranon writes that holds originals. ``reveal`` uses it to show
one unit de-anonymized to an authorized reviewer.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..corpora.model import AnonymizedPair

SCHEMA = """
CREATE TABLE IF NOT EXISTS entities (scope TEXT, number INTEGER, category TEXT, subtype TEXT,
    original TEXT, mentions INTEGER, PRIMARY KEY (scope, number, original));
CREATE TABLE IF NOT EXISTS mentions (unit TEXT, side TEXT, start INTEGER, end INTEGER, scope TEXT,
    number INTEGER, category TEXT, original TEXT, recognizer TEXT, rule TEXT);
CREATE INDEX IF NOT EXISTS mentions_unit ON mentions(unit);
"""


class KeyStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.touch(mode=0o600)
        self.path.chmod(0o600)  # secret: owner only
        self.db = sqlite3.connect(str(self.path))
        self.db.executescript(SCHEMA)

    def add_pair(self, pair: AnonymizedPair, scope: str) -> None:
        mentions = [("src", m) for m in pair.src_mentions] + [("tgt", m) for m in pair.tgt_mentions]
        self.db.executemany("INSERT INTO mentions VALUES (?,?,?,?,?,?,?,?,?,?)",
                            [(pair.id, side, m.start, m.end, scope, m.entity, m.category, m.text, m.recognizer, m.rule)
                             for side, m in mentions])
        self.db.executemany(
            "INSERT INTO entities VALUES (?,?,?,?,?,1) ON CONFLICT(scope, number, original) "
            "DO UPDATE SET mentions = mentions + 1",
            [(scope, m.entity, m.category, m.subtype, m.text) for _, m in mentions])

    def close(self) -> None:
        self.db.commit()
        self.db.close()


def originals(path: str | Path) -> list[str]:
    """Every original string in a key store (for leak scans)."""
    db = sqlite3.connect(str(path))
    try:
        return [r[0] for r in db.execute("SELECT DISTINCT original FROM mentions")]
    finally:
        db.close()


def reveal(path: str | Path, pair: AnonymizedPair) -> tuple[str, str]:
    """Both sides of one unit with the originals put back."""
    db = sqlite3.connect(str(path))
    try:
        rows = list(db.execute("SELECT side, start, end, original FROM mentions WHERE unit = ? ORDER BY start DESC",
                               (pair.id,)))
    finally:
        db.close()
    texts = {"src": pair.src, "tgt": pair.tgt}
    for side, start, end, original in rows:
        t = texts[side]
        texts[side] = t[:start] + original + t[end:]
    return texts["src"], texts["tgt"]
