"""Errors a person can act on: a wrong setting, a language the input lacks, a busy port; one line, exit 2."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from paranon.config import load_config
from paranon.errors import InputError

from .conftest import SAMPLE


def paranon(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "paranon.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


def one_line_error(r) -> str:
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


@pytest.mark.parametrize("yaml_text, line, key, expected", [
    ("workers: many\n", 1, "workers", "expected an integer, got a string 'many'"),
    ("src: pt\nworkers: true\n", 2, "workers", "expected an integer, got a boolean"),
    ("workers: -2\n", 1, "workers", "expected an integer of 0 or more"),
    ("anonymize:\n  allow: Lisboa\n", 2, "anonymize.allow", "expected a list of strings, got a string 'Lisboa'"),
    ("anonymize:\n  allow: [Lisboa, 3]\n", 2, "anonymize.allow", "expected a list of strings"),
    ("anonymize:\n  propagate: sometimes\n", 2, "anonymize.propagate", "expected true or false"),
    ("anonymize:\n  clustering:\n    threshold: high\n", 3, "anonymize.clustering.threshold", "expected a number"),
    ("anonymize:\n  deny: [Silva]\n", 2, "anonymize.deny", "expected a mapping of CATEGORY: [strings]"),
    ("anonymize:\n  scope: world\n", 2, "anonymize.scope", "expected one of segment, document, corpus"),
    ("align:\n  eflomal_iterations: lots\n", 2, "align.eflomal_iterations", "expected 'auto' or null or an integer"),
    ("input:\n  format: docx\n", 2, "input.format", "expected null or one of tmx, tsv, moses, jsonl"),
    ("portal: 20\n", 1, "portal", "expected a mapping"),
    ("anonymize:\n  same_entity: [Ana Lobo, Tita]\n", 2, "anonymize.same_entity",
     "expected a list of lists of two or more forms ([[form, form], ...]), got a list"),
    ("anonymize:\n  different_entities: [[Ana Lobo]]\n", 2, "anonymize.different_entities",
     "expected a list of lists of two or more forms"),
    ("anonymize:\n  same_entity: {PERSON: [Ana, Tita]}\n", 2, "anonymize.same_entity",
     "expected a list of lists of two or more forms ([[form, form], ...]), got a mapping"),
    # a merge and a split of the same two forms (compared like allow-list entries)
    ("anonymize:\n  same_entity: [[Ana Lobo, Tita]]\n  different_entities: [[Rui, TITA, ana lobo]]\n", 3,
     "anonymize.different_entities", "'TITA' and 'ana lobo' are also in one same_entity group"),
])
def test_a_setting_of_the_wrong_type_names_file_line_key_and_type(tmp_path, yaml_text, line, key, expected):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml_text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_config(cfg)
    assert str(err.value).startswith(f"{cfg}:{line}: {key}: {expected}")


@pytest.mark.parametrize("yaml_text", [
    "workers: 2\nanonymize:\n  allow: [Lisboa]\n  deny: {PERSON: [Silva]}\n",
    "input:\n  src_col: 1\n  tgt_col: target\nalign:\n  eflomal_iterations: 10\n  eflomal_samplers: auto\n",
    "scheduler: tcp://host:8786\nanonymize:\n  operators: {default: placeholder, PERSON: pseudonym}\n",
    "anonymize:\n  same_entity: [[Ana Lobo, Tita], [Grupo Sá, GS]]\n  different_entities: [[Ana Lobo, Ana Sá, Rui]]\n",
])
def test_settings_of_the_right_type_load(tmp_path, yaml_text):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml_text, encoding="utf-8")
    assert load_config(cfg)


@pytest.mark.parametrize("yaml_text, key, changed", [
    # options for one recognizer keep its other default options
    ("anonymize:\n  recognizer_options: {fallback_compound: {}}\n", "recognizer_options",
     {"fallback_compound": {"single_unknown": True}}),
    # options for another recognizer are added beside the defaults'
    ("anonymize:\n  recognizer_options: {person: {min_len: 3}}\n", "recognizer_options", {"person": {"min_len": 3}}),
    # the user's value for a default option wins
    ("anonymize:\n  recognizer_options: {fallback_compound: {single_unknown: false}}\n", "recognizer_options",
     {"fallback_compound": {"single_unknown": False}}),
    # one category's operator keeps the default operator
    ("anonymize:\n  operators: {PERSON: pseudonym}\n", "operators", {"PERSON": "pseudonym"}),
])
def test_a_mapping_of_free_keys_adds_to_the_defaults(tmp_path, yaml_text, key, changed):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml_text, encoding="utf-8")
    default = load_config()["anonymize"][key]
    assert default and load_config(cfg)["anonymize"][key] == {**default, **changed}


def test_the_command_line_says_it_in_one_line(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("workers: many\n", encoding="utf-8")
    err = one_line_error(paranon("run", SAMPLE, "-o", tmp_path / "o", "--config", cfg))
    assert f"{cfg}:1: workers: expected an integer" in err and "invalid literal" not in err
    assert not (tmp_path / "o").exists()


def tsv(tmp_path):
    p = tmp_path / "tm.tsv"
    p.write_text("id\tpt\ten\n1\tOlá.\tHello.\n", encoding="utf-8")
    return p


def jsonl(tmp_path):
    p = tmp_path / "tm.jsonl"
    p.write_text('{"src": "Olá.", "tgt": "Hello.", "src_lang": "pt", "tgt_lang": "en"}\n', encoding="utf-8")
    return p


def moses(tmp_path):
    (tmp_path / "tm.pt").write_text("Olá.\n", encoding="utf-8")
    (tmp_path / "tm.en").write_text("Hello.\n", encoding="utf-8")
    return tmp_path / "tm"


@pytest.mark.parametrize("make, args, says", [
    (lambda t: SAMPLE, ["--src", "fr"], "--src fr: no such language in the first 200 units (it has: pt-PT, en-GB)"),
    (lambda t: SAMPLE, ["--tgt", "es"], "--tgt es: no such language"),
    (lambda t: SAMPLE, ["--src", "pt-BR"], "--src pt-BR: no such language"),
    (tsv, ["--src", "fr"], "--src fr: no column of that name (header: id, pt, en)"),
    (jsonl, ["--tgt", "de"], "--tgt de: no such src_lang/tgt_lang"),
    (moses, ["--tgt", "de"], "--tgt de: no file tm.de (there are: tm.en, tm.pt)"),
])
def test_a_language_the_input_lacks_is_an_error(tmp_path, make, args, says):
    src = make(tmp_path)
    err = one_line_error(paranon("run", src, "-o", tmp_path / "o", *args))
    assert str(src) in err and says in err


def test_a_busy_port_is_one_line(sample_out):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        err = one_line_error(paranon("serve", sample_out, "--port", port))
    assert f"127.0.0.1:{port}" in err and "in use" in err and "serving" not in err
