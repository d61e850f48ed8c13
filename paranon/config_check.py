"""The type of every setting a config file gives, checked against ``defaults.yaml`` before the run starts.

``check(user, defaults, path)`` raises ``InputError`` with one line: the file, the line of the key, the
key's dotted name, what is expected and what was given (``cfg.yaml:3: workers: expected an integer, got
'many'``). A key's expected type is its default's, or ``SPECIAL``'s where the default is null or the keys
of a mapping are the user's own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from .corpora.formats import FORMATS as INPUT_FORMATS
from .errors import InputError

Check = Callable[[Any], bool]


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return _int(v) or isinstance(v, float)


def _str(v: Any) -> bool:
    return isinstance(v, str)


def _none(v: Any) -> bool:
    return v is None


def _str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _form_groups(v: Any) -> bool:
    return isinstance(v, list) and all(_str_list(g) and len(g) >= 2 for g in v)


def _one_of(*choices: str) -> tuple[Check, str]:
    return (lambda v: v in choices), (f"{choices[0]!r}" if len(choices) == 1 else
                                      "one of " + ", ".join(choices))


def _either(*checks: tuple[Check, str]) -> tuple[Check, str]:
    return (lambda v: any(c(v) for c, _ in checks)), " or ".join(d for _, d in checks)


ALIGN_METHODS = ("auto", "simalign", "eflomal")
INDEX_BACKENDS = ("tantivy", "whoosh")
STR = (_str, "a string")
INT = (_int, "an integer")
NULL = (_none, "null")
STR_LIST = (_str_list, "a list of strings")
BY_TYPE: dict[type, tuple[Check, str]] = {
    bool: (lambda v: isinstance(v, bool), "true or false"),
    int: INT,
    float: (_number, "a number"),
    str: STR,
    list: (lambda v: isinstance(v, list), "a list"),
    dict: (lambda v: isinstance(v, dict), "a mapping (key: value lines)"),
}
SPECIAL: dict[str, tuple[Check, str]] = {
    "scheduler": _either(NULL, STR),
    "input.format": _either(NULL, _one_of(*INPUT_FORMATS)),
    "input.src_col": _either(NULL, STR, INT),
    "input.tgt_col": _either(NULL, STR, INT),
    "anonymize.categories": STR_LIST,
    "anonymize.recognizers": STR_LIST,
    "anonymize.allow": STR_LIST,
    "anonymize.allow_files": STR_LIST,
    "anonymize.models": (lambda v: isinstance(v, list) and all(isinstance(x, dict | str) for x in v),
                         "a list of model names or mappings ({model: NAME, labels: {...}})"),
    "anonymize.deny": (lambda v: isinstance(v, dict) and all(_str_list(x) for x in v.values()),
                       "a mapping of CATEGORY: [strings]"),
    "anonymize.allow_in_documents": (lambda v: isinstance(v, dict) and all(_str_list(x) for x in v.values()),
                                     "a mapping of DOCUMENT: [strings]"),
    "anonymize.same_entity": (_form_groups, "a list of lists of two or more forms ([[form, form], ...])"),
    "anonymize.different_entities": (_form_groups, "a list of lists of two or more forms ([[form, form], ...])"),
    "anonymize.recognizer_options": (lambda v: isinstance(v, dict) and all(isinstance(x, dict) for x in v.values()),
                                     "a mapping of recognizer: {option: value}"),
    "anonymize.operators": (lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
                            "a mapping of CATEGORY: operator"),
    "anonymize.scope": _one_of("segment", "document", "corpus"),
    "align.method": _one_of(*ALIGN_METHODS),
    "align.symmetrization": _one_of("grow-diag-final-and", "union", "intersection"),
    "align.extra_src": _either(NULL, STR),
    "align.extra_tgt": _either(NULL, STR),
    "align.eflomal_iterations": _either(_one_of("auto"), NULL, INT),
    "align.eflomal_samplers": _either(_one_of("auto"), INT),
    "align.layer": INT,
    "align.priors": _either(NULL, STR),
    "input.max_segment_chars": _either(NULL, INT),
    "index.backend": _one_of(*INDEX_BACKENDS),
}
NON_NEGATIVE = {"workers", "chunk_size", "input.document_pairs", "align.batch_size", "align.eflomal_prefix",
                "portal.per_page", "portal.max_per_page"}


def _lines(text: str) -> dict[str, int]:
    """Dotted key -> line number (1-based) of every key of the file's nested mappings."""
    out: dict[str, int] = {}

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                key = f"{prefix}{k.value}"
                out.setdefault(key, k.start_mark.line + 1)
                walk(v, key + ".")

    try:
        walk(yaml.compose(text), "")
    except yaml.YAMLError:
        pass
    return out


def _shown(v: Any) -> str:
    kind = {str: "a string", bool: "a boolean", int: "an integer", float: "a number", list: "a list",
            dict: "a mapping", type(None): "null"}.get(type(v), type(v).__name__)
    text = repr(v)
    return f"{kind} {text if len(text) <= 40 else text[:37] + '...'}"


def check(user: dict[str, Any], defaults: dict[str, Any], path: Path) -> None:
    """A config file's values: an error names the file and the key's line."""
    check_values(user, defaults, str(path), _lines(path.read_text(encoding="utf-8")))


def check_values(user: dict[str, Any], defaults: dict[str, Any], where: str, lines: dict[str, int] | None = None,
                 prefix: str = "") -> None:
    """Every value of ``user`` against ``defaults`` (the section whose dotted name is ``prefix``); an error
    names ``where`` (and the key's line when ``lines`` has it), the key, what is expected and what was given."""
    lines = lines or {}

    def fail(key: str, expected: str, value: Any) -> None:
        line = f":{lines[key]}" if key in lines else ""
        raise InputError(f"{where}{line}: {key}: expected {expected}, got {_shown(value)}")

    def walk(over: dict[str, Any], base: dict[str, Any], prefix: str) -> None:
        for key, value in over.items():
            name = f"{prefix}{key}"
            if key not in base:
                continue  # unknown keys: _merge names them with the known ones
            default = base[key]
            if name in SPECIAL:
                ok, expected = SPECIAL[name]
            elif default is None:
                continue
            else:
                ok, expected = BY_TYPE.get(type(default), (lambda v: True, ""))
            if not ok(value):
                fail(name, expected, value)
            if name in NON_NEGATIVE and value < 0:
                fail(name, "an integer of 0 or more", value)
            if isinstance(default, dict) and isinstance(value, dict) and name not in SPECIAL:
                walk(value, default, name + ".")

    walk(user, defaults, prefix)
    section = user.get("anonymize") if prefix == "" else user if prefix == "anonymize." else None
    if isinstance(section, dict) and (both := _joined_and_apart(section)):
        key = "anonymize.different_entities"
        line = f":{lines[key]}" if key in lines else ""
        raise InputError(f"{where}{line}: {key}: {both[0]!r} and {both[1]!r} are also in one same_entity group; "
                         "keep one of the two decisions")


def _joined_and_apart(section: dict[str, Any]) -> tuple[str, str] | None:
    """Two forms that ``different_entities`` keeps apart while one ``same_entity`` group joins them."""
    from .anonymize.numbering import Constraints

    return Constraints(section.get("same_entity") or [], section.get("different_entities") or []).conflict
