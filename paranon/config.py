"""Settings: the documented defaults in ``defaults.yaml``, overlaid by the user's ``--config FILE.yaml``.

Every key's value is checked when the file is loaded: its type is the default's type (an integer where the
default is one, a list of strings where it is a list ...), or the one ``SPECIAL`` gives for keys whose default
is null or whose keys are free (``deny``, ``operators``). A wrong value is an ``InputError`` naming the file,
its line, the key and what was expected.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")
FREE_KEYS = ("deny", "recognizer_options", "operators", "allow_in_documents")  # mappings whose keys the user chooses


def _merge(base: dict, over: dict, where: str) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if key not in base:
            raise InputError(f"{where}: unknown setting {key!r} (known: {', '.join(sorted(base))})")
        if isinstance(base[key], dict) and isinstance(value, dict) and key not in FREE_KEYS:
            out[key] = _merge(base[key], value, f"{where}.{key}")
        else:
            out[key] = value
    return out


def defaults() -> dict[str, Any]:
    return yaml.safe_load(DEFAULTS_FILE.read_text(encoding="utf-8"))


def load_config(path: str | Path | None = None, **overrides: Any) -> dict[str, Any]:
    """Defaults <- config file <- command-line overrides (``None`` values are ignored)."""
    cfg = defaults()
    if path:
        p = Path(path)
        if not p.exists():
            raise InputError(f"{p}: config file not found")
        try:
            user = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = f":{mark.line + 1}" if mark else ""
            raise InputError(f"{p}{line}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
        if not isinstance(user, dict):
            raise InputError(f"{p}: a config file must be a YAML mapping")
        from .config_check import check

        check(user, cfg, p)
        cfg = _merge(cfg, user, str(p))
    for key, value in overrides.items():
        if value is not None:
            cfg[key] = value
    return cfg
