"""``keys.sqlite``: the private map from entity numbers to original strings. SECRET: never publish it.

It is the only file paranon writes that holds originals. ``reveal`` uses it to show
one unit de-anonymized to an authorized reviewer.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from ..corpora.model import AnonymizedPair, SegmentPair

SCHEMA = """
CREATE TABLE IF NOT EXISTS mentions (unit TEXT, side TEXT, start INTEGER, end INTEGER, scope TEXT,
    number INTEGER, category TEXT, subtype TEXT, original TEXT, recognizer TEXT, rule TEXT, chunk INTEGER);
CREATE INDEX IF NOT EXISTS mentions_chunk ON mentions(chunk);
CREATE TABLE IF NOT EXISTS ids (kind TEXT, public TEXT, original TEXT, chunk INTEGER);
CREATE INDEX IF NOT EXISTS ids_chunk ON ids(chunk);
"""
# built once at the end from the mentions: one row per (scope, number, original string)
ENTITIES = """
DROP TABLE IF EXISTS entities;
CREATE TABLE entities AS SELECT scope, number, category, subtype, original, COUNT(*) AS mentions
    FROM mentions GROUP BY scope, number, original ORDER BY MIN(rowid);
CREATE INDEX IF NOT EXISTS mentions_unit ON mentions(unit);
CREATE INDEX IF NOT EXISTS entities_key ON entities(scope, number);
CREATE INDEX IF NOT EXISTS ids_public ON ids(public);
CREATE INDEX IF NOT EXISTS ids_original ON ids(original);
"""


class KeyStore:
    """Mentions are added chunk by chunk (a redone chunk first loses its old rows), entities built at the end."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.touch(mode=0o600)
        self.path.chmod(0o600)  # secret: owner only
        self.db = sqlite3.connect(str(self.path))
        self.db.executescript(SCHEMA)

    def begin_chunk(self, chunk: int) -> None:
        self.begin_chunk_mentions(chunk)
        self.db.execute("DELETE FROM ids WHERE chunk = ?", (chunk,))

    @staticmethod
    def id_rows(pairs: list[SegmentPair], chunk: int = 0) -> list[tuple]:
        """The original unit and document ids behind a chunk's opaque ones (``ids: opaque``); a document's
        row comes with its first unit in the chunk."""
        rows: list[tuple] = []
        seen: set[str] = set()
        for p in pairs:
            unit, doc = p.source_ids
            if (unit, doc) == ("", "") or (unit, doc) == (p.id, p.doc):
                continue
            if p.doc not in seen:
                seen.add(p.doc)
                rows.append(("doc", p.doc, doc, chunk))
            rows.append(("unit", p.id, unit, chunk))
        return rows

    def add_id_rows(self, rows: list[tuple]) -> None:
        self.db.executemany("INSERT INTO ids VALUES (?,?,?,?)", rows)

    @staticmethod
    def set_files(path: str | Path, files: dict[str, str], run_input: str | Path | None = None) -> None:
        """The input files behind the report's aliases (``file-0001``), and the run's input as given (for
        ``paranon apply``): paths name people too, so they live here, not in the report."""
        db = sqlite3.connect(str(path))
        try:
            db.executescript(SCHEMA)
            db.execute("DELETE FROM ids WHERE kind IN ('file', 'input')")
            db.executemany("INSERT INTO ids VALUES ('file', ?, ?, -1)", [(a, p) for p, a in files.items()])
            if run_input is not None:
                db.execute("INSERT INTO ids VALUES ('input', 'input', ?, -1)", (str(Path(run_input).absolute()),))
            db.commit()
        finally:
            db.close()

    @staticmethod
    def rows(pair: AnonymizedPair, scope: str, chunk: int = 0) -> list[tuple]:
        """The rows of one pair's mentions (made where the pair is, so only rows travel between processes)."""
        mentions = [("src", m) for m in pair.src_mentions] + [("tgt", m) for m in pair.tgt_mentions]
        return [(pair.id, side, m.start, m.end, scope, m.entity, m.category, m.subtype, m.text, m.recognizer, m.rule,
                 chunk) for side, m in mentions]

    def add_rows(self, rows: list[tuple]) -> None:
        self.db.executemany("INSERT INTO mentions VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)

    def commit(self) -> None:
        self.db.commit()

    def close(self) -> None:
        self.db.commit()
        self.db.close()

    def replace_units(self, chunk: int, rows: dict[str, list[tuple]], units: list[str]) -> None:
        """The chunk's rows with those of the units in ``rows`` replaced, in the order of ``units``."""
        old: dict[str, list[tuple]] = {}
        for row in self.db.execute("SELECT * FROM mentions WHERE chunk = ? ORDER BY rowid", (chunk,)):
            old.setdefault(row[0], []).append(row)
        self.begin_chunk_mentions(chunk)
        self.add_rows([r for u in units for r in (rows[u] if u in rows else old.get(u, []))])

    def begin_chunk_mentions(self, chunk: int) -> None:
        self.db.execute("DELETE FROM mentions WHERE chunk = ?", (chunk,))

    @staticmethod
    def in_chunk_order(path: str | Path) -> None:
        """Rows in the order a run writes them, chunk after chunk, the files last (``paranon apply`` writes
        the chunks it redoes last): the entity table and the report list entities by their first mention."""
        db = sqlite3.connect(str(path))
        try:
            for table in ("mentions", "ids"):
                db.execute(f"CREATE TEMP TABLE sorted AS SELECT * FROM {table} ORDER BY chunk < 0, chunk, rowid")
                db.execute(f"DELETE FROM {table}")
                db.execute(f"INSERT INTO {table} SELECT * FROM sorted")
                db.execute("DROP TABLE sorted")
            db.commit()
        finally:
            db.close()

    @staticmethod
    def finalize(path: str | Path) -> None:
        db = sqlite3.connect(str(path))
        try:
            db.executescript(ENTITIES)
            db.commit()
        finally:
            db.close()


def entity_rows(keys_path: str | Path, limit: int = 20000) -> tuple[int, list[dict[str, Any]]]:
    """Entities for the report: numbers, categories, counts and rules; never the originals."""
    db = sqlite3.connect(str(keys_path))
    try:
        total = db.execute("SELECT COUNT(*) FROM (SELECT DISTINCT scope, number FROM mentions "
                           "WHERE side = 'src')").fetchone()[0]
        rows: dict[tuple[str, int], dict[str, Any]] = {}
        for scope, number, cat, sub, rec, rule, n in db.execute(
                "SELECT scope, number, category, subtype, recognizer, rule, COUNT(*) FROM mentions "
                "WHERE side = 'src' AND (scope, number) IN (SELECT DISTINCT scope, number FROM mentions "
                "WHERE side = 'src' ORDER BY rowid LIMIT ?) GROUP BY scope, number, recognizer, rule "
                "ORDER BY MIN(rowid)", (limit,)):
            e = rows.setdefault((scope, number), {"scope": scope, "number": number,
                                                  "category": cat + (f"_{sub}" if sub else ""),
                                                  "mentions": 0, "rules": {}})
            e["mentions"] += n
            e["rules"][f"{rec}:{rule}"] = n
        return total, list(rows.values())
    finally:
        db.close()


def originals(path: str | Path) -> list[str]:
    """Every original string in a key store (for leak scans)."""
    db = sqlite3.connect(str(path))
    try:
        return [r[0] for r in db.execute("SELECT DISTINCT original FROM mentions")]
    finally:
        db.close()


def run_input(path: str | Path) -> str | None:
    """The input path of the run whose key store this is."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT original FROM ids WHERE kind = 'input' LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        row = None
    finally:
        db.close()
    return row[0] if row else None


def public_id(path: str | Path, original: str, kind: str = "unit") -> str | None:
    """The opaque id that stands for an original unit (or document) id, if any."""
    db = sqlite3.connect(str(path))
    try:
        row = db.execute("SELECT public FROM ids WHERE kind = ? AND original = ? LIMIT 1", (kind, original)).fetchone()
    except sqlite3.OperationalError:  # a key store from before the ids table
        row = None
    finally:
        db.close()
    return row[0] if row else None


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
