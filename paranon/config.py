"""Settings as a mapping: the documented defaults in ``defaults.yaml``, overlaid by the user's ``--config FILE.yaml``.

Every key's value is checked when the file is loaded: its type is the default's type (an integer where the
default is one, a list of strings where it is a list ...), or the one ``SPECIAL`` gives for keys whose default
is null or whose keys are free (``deny``, ``operators``). A wrong value is an ``InputError`` naming the file,
its line, the key and what was expected.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError
from .yaml_files import read_yaml

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")
FREE_KEYS = ("deny", "recognizer_options", "operators", "allow_in_documents")  # mappings whose keys the user chooses


def _merge(base: dict, over: dict, where: str) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if key not in base:
            raise InputError(f"{where}: unknown setting {key!r} (known: {', '.join(sorted(base))})")
        if isinstance(base[key], dict) and isinstance(value, dict):
            out[key] = _merge_free(base[key], value) if key in FREE_KEYS else _merge(base[key], value, f"{where}.{key}")
        else:
            out[key] = value
    return out


def _merge_free(base: dict, over: dict) -> dict:
    """A mapping whose keys the user chooses: the user's keys added to the defaults'; where both name one key with
    a mapping, merged one level down (options given for one recognizer keep its other default options)."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        out[key] = {**out[key], **value} if isinstance(out.get(key), dict) and isinstance(value, dict) else value
    return out


@cache
def _defaults_file() -> dict[str, Any]:
    return read_yaml(DEFAULTS_FILE)


def defaults() -> dict[str, Any]:
    """Every setting at its default (a fresh copy: the file is read once per process)."""
    return copy.deepcopy(_defaults_file())


def merge_checked(base: dict[str, Any], over: dict[str, Any], where: str, prefix: str = "") -> dict[str, Any]:
    """``base`` overlaid by ``over``, every value of ``over`` checked (``where``: what to name in an error;
    ``prefix``: the dotted name of the section ``base`` is, "" for the whole file)."""
    from .config_check import check_values

    check_values(over, base, where, prefix=f"{prefix}." if prefix else "")
    return _merge(base, over, where)


def apply_overrides(cfg: dict[str, Any], values: dict[str, Any], where: str = "command line") -> dict[str, Any]:
    """``cfg`` with dotted keys set (``{"input.strict": True}``), each checked; ``None`` values ignored."""
    nested: dict[str, Any] = {}
    for dotted, value in values.items():
        if value is None:
            continue
        *parents, last = dotted.split(".")
        node = nested
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    return merge_checked(cfg, nested, where) if nested else cfg


def read_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults <- config file <- dotted overrides, checked, as a plain mapping (``settings.load_settings``
    types it)."""
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
    return apply_overrides(cfg, overrides or {})


def load_config(path: str | Path | None = None, overrides: dict[str, Any] | None = None,
                **top: Any) -> dict[str, Any]:
    """The settings as the mapping the code read before ``paranon.settings``: made from the typed
    ``Settings`` (every key present, checked). ``top``: top-level overrides (``src="pt"``); ``overrides``:
    dotted ones; ``None`` values are ignored. New code: ``paranon.settings.load_settings``."""
    from .settings import load_settings

    return load_settings(path, {**top, **(overrides or {})}).as_dict()
