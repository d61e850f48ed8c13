"""The run's settings, typed: one frozen dataclass per section of ``defaults.yaml``, loaded once.

``load_settings(path, overrides)`` reads ``defaults.yaml``, overlays the user's file (every key's type checked
by ``config_check``, an unknown key named with the known ones), then the command line's dotted overrides
(``{"input.strict": True}``; ``None`` values ignored), and returns a ``Settings``. Each stage is handed its own
section (``settings.anonymize``, ``settings.align`` ...). No field has a default here: every default is
written once, in ``defaults.yaml`` (a test checks that the sections and the file have the same keys).

During the move from the dict to the sections, both are accepted: ``Settings.of(x)`` (and each section's
``of``) takes a ``Settings`` or the dict the code read before, with missing keys filled from the defaults and
every value checked; ``settings.as_dict()`` gives that dict (a fresh, mutable copy) to code not yet converted.
Lists are tuples in the sections and lists again in ``as_dict``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any, get_type_hints

from .config import apply_overrides, defaults, merge_checked, read_config
from .errors import InputError


class Section:
    """What every section can do: be built from (or be) a mapping, and give it back."""

    @classmethod
    def of(cls, value: Any) -> Any:
        """``value`` itself when it is already this section, else the section built from its mapping (the
        keys it lacks from ``defaults.yaml``, every value checked)."""
        if isinstance(value, cls):
            return value
        if not isinstance(value, dict):
            raise InputError(f"{cls.__name__}: expected a mapping of settings, got {type(value).__name__}")
        path = _SECTION_PATHS[cls]
        return _build(cls, merge_checked(_defaults_at(path), value, "settings", ".".join(path)))

    def as_dict(self) -> dict[str, Any]:
        """The section as the mapping ``defaults.yaml`` spells (tuples as lists), a fresh copy."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class InputSettings(Section):
    format: str | None
    src_col: str | int | None
    tgt_col: str | int | None
    strict: bool
    document_pairs: int
    max_segment_chars: int | None
    long_segments: str


@dataclass(frozen=True)
class MetadataSettings(Section):
    text: str
    inline_code: str
    people: str
    people_keys: tuple[str, ...]


@dataclass(frozen=True)
class ClusteringSettings(Section):
    threshold: float


@dataclass(frozen=True)
class AnonymizeSettings(Section):
    rules: str
    categories: tuple[str, ...]
    recognizers: tuple[str, ...]
    recognizer_options: dict[str, dict[str, Any]]
    models: tuple[Any, ...]
    allow: tuple[str, ...]
    allow_files: tuple[str, ...]
    allow_in_documents: dict[str, list[str]]
    deny: dict[str, list[str]]
    same_entity: tuple[list[str], ...]
    different_entities: tuple[list[str], ...]
    propagate: bool
    corpus_consistency: bool
    scope: str
    clustering: ClusteringSettings
    operators: dict[str, str]
    placeholder: str
    pseudonym_locale: str
    seed: int


@dataclass(frozen=True)
class AlignSettings(Section):
    method: str
    model: str
    matching: str
    layer: int
    batch_size: int
    allow_download: bool
    extra_src: str | None
    extra_tgt: str | None
    eflomal_iterations: str | int | None
    eflomal_prefix: int
    eflomal_samplers: str | int
    priors: str | None
    priors_max_pairs: int
    prior_alpha: float
    symmetrization: str
    deterministic: bool


@dataclass(frozen=True)
class IndexSettings(Section):
    enabled: bool
    backend: str


@dataclass(frozen=True)
class PortalSettings(Section):
    per_page: int
    max_per_page: int


@dataclass(frozen=True)
class Settings(Section):
    src: str
    tgt: str
    workers: int
    scheduler: str | None
    chunk_size: int
    input: InputSettings
    ids: str
    metadata: MetadataSettings
    anonymize: AnonymizeSettings
    align: AlignSettings
    index: IndexSettings
    portal: PortalSettings

    def with_values(self, values: dict[str, Any]) -> Settings:
        """A copy with dotted keys changed (``{"input.strict": True}``), each value checked as a file's is;
        ``None`` values are ignored."""
        return Settings.of(apply_overrides(self.as_dict(), values))


_SECTION_PATHS: dict[type, tuple[str, ...]] = {
    Settings: (), InputSettings: ("input",), MetadataSettings: ("metadata",), AnonymizeSettings: ("anonymize",),
    ClusteringSettings: ("anonymize", "clustering"), AlignSettings: ("align",), IndexSettings: ("index",),
    PortalSettings: ("portal",),
}


def load_settings(path: Any = None, overrides: dict[str, Any] | None = None) -> Settings:
    """Defaults <- the config file at ``path`` <- dotted command-line ``overrides``, typed and checked."""
    return Settings.of(read_config(path, overrides))


def _defaults_at(path: tuple[str, ...]) -> dict[str, Any]:
    node = defaults()
    for key in path:
        node = node[key]
    return node


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _build(cls: type, values: dict[str, Any]) -> Any:
    """A section from a complete, checked mapping: nested sections built, lists made tuples."""
    hints, out = _hints(cls), {}
    extra = set(values) - {f.name for f in dataclasses.fields(cls)}
    if extra:  # defaults.yaml has a key no section declares: a mistake in paranon, not the user's
        raise TypeError(f"{cls.__name__} has no field for {', '.join(sorted(extra))} (paranon/defaults.yaml)")
    for f in dataclasses.fields(cls):
        v, kind = values[f.name], hints[f.name]
        if isinstance(kind, type) and issubclass(kind, Section):
            out[f.name] = _build(kind, v)
        else:
            out[f.name] = tuple(v) if isinstance(v, list) else v
    return cls(**out)


def _plain(v: Any) -> Any:
    if isinstance(v, Section):
        return v.as_dict()
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v
