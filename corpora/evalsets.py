"""The named evaluation sets of ``corpora/evalsets.yaml``: which are test sets (figures only) and which tune.

``resolve("lener-dev")`` gives a set by name; ``resolve("some/path.jsonl")`` gives the named set with that
path (so a test set stays a test set however it is named) or an unnamed set of kind ``other``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import InputError

ROOT = Path(__file__).resolve().parent.parent
SETS_FILE = Path(__file__).resolve().parent / "evalsets.yaml"
KINDS = ("test", "tuning")
FORMATS = ("conll", "jsonl", "harem", "harem-names")  # harem-names: PERSON cut to the name (corpora/harem.py)


@dataclass
class EvalSet:
    name: str
    kind: str                     # test | tuning | other
    path: Path
    format: str | None = None     # conll | jsonl | harem | harem-names; None: from the file
    map: dict[str, str] | None = None
    transfer: bool = False
    also: list[Path] = field(default_factory=list)
    build: Path | None = None     # a script that makes ``path`` from ../shared (``SCRIPT build PATH``)

    @property
    def figures_only(self) -> bool:
        """Test sets are looked at only as figures: no entity string is shown for them."""
        return self.kind == "test"

    def exists(self) -> bool:
        """Whether the set's file is there; a set made by a script (its text stays in ../shared, never in
        git) is built first when it is not."""
        if not self.path.exists() and self.build is not None and self.build.exists():
            import subprocess
            import sys

            subprocess.run([sys.executable, str(self.build), "build", str(self.path)], capture_output=True)
        return self.path.exists()


def _path(p: str, root: Path) -> Path:
    q = Path(p)
    return q if q.is_absolute() else root / q


def load_sets(path: Path | None = None, root: Path | None = None) -> list[EvalSet]:
    """Every named set, test sets first, in the file's order."""
    path, root = path or SETS_FILE, root or ROOT
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    unknown = set(data) - set(KINDS)
    if unknown:
        raise InputError(f"{path}: unknown section {sorted(unknown)[0]!r} (expected test, tuning)")
    out = []
    for kind in KINDS:
        for name, spec in (data.get(kind) or {}).items():
            if not isinstance(spec, dict) or "path" not in spec:
                raise InputError(f"{path}: {kind}.{name}: needs a path")
            fmt = spec.get("format")
            if fmt is not None and fmt not in FORMATS:
                raise InputError(f"{path}: {kind}.{name}.format: {fmt!r} is not one of {', '.join(FORMATS)}")
            out.append(EvalSet(name, kind, _path(spec["path"], root), fmt, spec.get("map"),
                               bool(spec.get("transfer", False)), [_path(a, root) for a in spec.get("also", [])],
                               _path(spec["build"], root) if spec.get("build") else None))
    return out


def resolve(spec: str, sets: list[EvalSet] | None = None) -> EvalSet:
    """A set by name, or by path (a named set's path or one of its ``also`` paths keeps its kind)."""
    sets = load_sets() if sets is None else sets
    for s in sets:
        if s.name == spec:
            return s
    given = Path(spec).resolve()
    for s in sets:
        if given in {s.path.resolve(), *(a.resolve() for a in s.also)}:
            return EvalSet(s.name, s.kind, Path(spec), s.format,
                           s.map, s.transfer, build=s.build if given == s.path.resolve() else None)
    if not Path(spec).exists() and "/" not in spec and "." not in spec:
        raise InputError(f"--gold {spec}: no such set (known: {', '.join(s.name for s in sets)}) nor file")
    return EvalSet(spec, "other", Path(spec))
