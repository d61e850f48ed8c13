"""The typed settings: one section per part of defaults.yaml, every default written once (in the YAML)."""

from __future__ import annotations

import dataclasses
import pickle
import typing

import pytest

from paranon.config import defaults, load_config
from paranon.errors import InputError
from paranon.settings import AlignSettings, AnonymizeSettings, InputSettings, Settings, load_settings


def test_the_sections_have_exactly_the_keys_of_defaults_yaml():
    assert load_settings().as_dict() == defaults()


def test_no_section_field_has_a_default_in_code():
    def fields(cls):
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            yield cls, f
            if dataclasses.is_dataclass(hints[f.name]):
                yield from fields(hints[f.name])

    with_default = [f"{c.__name__}.{f.name}" for c, f in fields(Settings)
                    if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING]
    assert with_default == [] and len(list(fields(Settings))) > 60


@pytest.mark.parametrize("overrides, read, expected", [
    ({"src": "pt-BR"}, lambda s: s.src, "pt-BR"),
    ({"workers": 3}, lambda s: s.workers, 3),
    ({"input.strict": True}, lambda s: s.input.strict, True),
    ({"input.src_col": "1"}, lambda s: s.input.src_col, "1"),
    ({"align.method": "eflomal"}, lambda s: s.align.method, "eflomal"),
    ({"anonymize.clustering.threshold": 0.3}, lambda s: s.anonymize.clustering.threshold, 0.3),
    ({"workers": None}, lambda s: s.workers, 0),  # an option not given leaves the default
])
def test_command_line_overrides_are_dotted_keys(overrides, read, expected):
    assert read(load_settings(None, overrides)) == expected


@pytest.mark.parametrize("yaml_text, read, expected", [
    ("anonymize:\n  allow: [Lisboa, Porto]\n", lambda s: s.anonymize.allow, ("Lisboa", "Porto")),
    ("align:\n  eflomal_prefix: 0\n", lambda s: s.align.eflomal_prefix, 0),
    ("input:\n  max_segment_chars: null\n", lambda s: s.input.max_segment_chars, None),
    ("anonymize:\n  models: [pt_legal_ner]\n", lambda s: s.anonymize.models, ("pt_legal_ner",)),
    ("anonymize:\n  models: [{model: /m, labels: {PESSOA: PERSON}}]\n", lambda s: s.anonymize.models[0]["model"], "/m"),
    ("align:\n  priors: null\n", lambda s: s.align.priors, None),
])
def test_a_config_file_fills_the_sections(tmp_path, yaml_text, read, expected):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml_text, encoding="utf-8")
    assert read(load_settings(cfg)) == expected
    assert load_config(cfg) == load_settings(cfg).as_dict()


@pytest.mark.parametrize("overrides, says", [
    ({"workers": -1}, "command line: workers: expected an integer of 0 or more"),
    ({"input.strict": "yes"}, "command line: input.strict: expected true or false"),
    ({"align.method": "giza"}, "command line: align.method: expected one of auto, simalign, eflomal"),
    ({"index.backend": "lucene"}, "command line: index.backend: expected one of tantivy, whoosh"),
    ({"align.nope": 1}, "command line.align: unknown setting 'nope'"),
])
def test_a_bad_override_is_one_line_naming_the_key(overrides, says):
    with pytest.raises(InputError) as err:
        load_settings(None, overrides)
    assert str(err.value).startswith(says)


@pytest.mark.parametrize("cls, partial, read, expected", [
    (AnonymizeSettings, {"operators": {"default": "pseudonym"}}, lambda a: a.operators["default"], "pseudonym"),
    (AnonymizeSettings, {}, lambda a: a.placeholder, defaults()["anonymize"]["placeholder"]),
    (AlignSettings, {"eflomal_prefix": 2}, lambda a: (a.eflomal_prefix, a.prior_alpha), (2, 1.0)),
    (InputSettings, {"strict": True}, lambda i: (i.strict, i.long_segments), (True, "split")),
])
def test_a_section_is_made_from_the_old_mapping_with_defaults_filled(cls, partial, read, expected):
    section = cls.of(partial)
    assert read(section) == expected and cls.of(section) is section


def test_a_section_of_a_bad_mapping_names_the_key():
    with pytest.raises(InputError, match=r"anonymize\.scope: expected one of segment, document, corpus"):
        AnonymizeSettings.of({"scope": "world"})


def test_settings_are_frozen_picklable_and_changed_by_copy():
    s = load_settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.workers = 2  # type: ignore[misc]
    t = s.with_values({"input.strict": True})
    assert (s.input.strict, t.input.strict) == (False, True)
    assert pickle.loads(pickle.dumps(t)) == t
    assert Settings.of(t.as_dict()) == t
