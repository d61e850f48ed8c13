"""The JSONL gold format every ``paranon eval`` command reads (see docs/formats.md).

One object per line: ``{"id", "doc", "src", "tgt", "src_entities": [{"start", "end", "category", "entity"}],
"tgt_entities": [...]}``; character offsets, end exclusive; ``entity`` is shared by every mention of the
same real-world entity in both languages.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError
from ..model import SegmentPair


@dataclass
class GoldPair:
    pair: SegmentPair
    src_entities: list[dict]
    tgt_entities: list[dict]


def read_gold(path: str | Path, src_lang: str = "pt", tgt_lang: str = "en") -> Iterator[GoldPair]:
    """Gold pairs; any malformed line or entity stops with the file and line named (gold must be exact)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"{path}:{no}"
            try:
                rec = json.loads(line)
                src, tgt = str(rec["src"]), str(rec.get("tgt", ""))
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise InputError(f"{where}: not a gold record ({exc})") from None
            sides = {}
            for side, text in (("src", src), ("tgt", tgt)):
                ents = rec.get(f"{side}_entities", [])
                for e in ents:
                    try:
                        ok = 0 <= int(e["start"]) < int(e["end"]) <= len(text) and e["category"]
                    except (KeyError, TypeError, ValueError):
                        ok = False
                    if not ok:
                        raise InputError(f"{where}: bad {side} entity {json.dumps(e, ensure_ascii=False)}")
                    e.setdefault("entity", f"{no}:{e['start']}")
                    e["entity"] = str(e["entity"])
                sides[side] = ents
            pair = SegmentPair(id=str(rec.get("id", f"{path.stem}:{no}")), doc=str(rec.get("doc", path.stem)),
                               src=src, tgt=tgt, src_lang=src_lang, tgt_lang=tgt_lang, meta={}, origin=where)
            yield GoldPair(pair, sides["src"], sides["tgt"])
