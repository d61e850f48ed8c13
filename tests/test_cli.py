"""The command line: one spelling per option, each option landing in its setting, --json doing something."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paranon.cli import app_config, build_parser, main
from paranon.cli_args import settings_of


def parse(*argv: str):
    return build_parser().parse_args(list(argv))


@pytest.mark.parametrize("argv, read, expected", [
    (["run", "tm.tmx", "-o", "out", "--aligner", "eflomal"], lambda s: s.align.method, "eflomal"),
    (["run", "tm.tmx", "-o", "out", "--strict"], lambda s: s.input.strict, True),
    (["run", "tm.tmx", "-o", "out"], lambda s: s.input.strict, False),
    (["run", "tm.tsv", "-o", "out", "--format", "tsv", "--src-col", "2"], lambda s: (s.input.format, s.input.src_col),
     ("tsv", "2")),
    (["run", "tm.tmx", "-o", "out", "--workers", "3", "--src", "pt-BR"], lambda s: (s.workers, s.src), (3, "pt-BR")),
    (["eval", "align", "--src", "s", "--tgt", "t", "--gold", "g", "--aligner", "simalign"],
     lambda s: s.align.method, "simalign"),
    # eval ner's --format is the gold file's, not the input's
    (["eval", "ner", "--gold", "g.conll", "--format", "conll"], lambda s: s.input.format, None),
])
def test_each_option_lands_in_its_setting(argv, read, expected):
    assert read(settings_of(parse(*argv))) == expected


def test_method_is_the_old_spelling_of_aligner(capsys):
    args = parse("eval", "align", "--src", "s", "--tgt", "t", "--gold", "g", "--method", "eflomal")
    assert args.aligner == "eflomal" and settings_of(args).align.method == "eflomal"
    assert "--method is spelled --aligner now" in capsys.readouterr().err


@pytest.mark.parametrize("yaml_text, per_page, most", [
    ("", 20, 100),
    ("portal:\n  per_page: 7\n", 7, 100),
    ("portal:\n  per_page: 5\n  max_per_page: 50\n", 5, 50),
])
def test_serve_takes_the_portal_settings(tmp_path, yaml_text, per_page, most):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(yaml_text, encoding="utf-8")
    config = app_config(parse("serve", "out", "--config", str(cfg), "--cache", "0"), Path("out"))
    assert (config["PER_PAGE"], config["MAX_PER_PAGE"], config["SEARCH_CACHE"]) == (per_page, most, 0)


@pytest.fixture()
def tiny_gold(tmp_path):
    src, tgt, gold = (tmp_path / n for n in ("s.txt", "t.txt", "g.align"))
    src.write_text("o contrato foi assinado\no banco pagou\n", encoding="utf-8")
    tgt.write_text("the contract was signed\nthe bank paid\n", encoding="utf-8")
    gold.write_text("0-0 1-1 2-2 3-3\n0-0 1-1 2-2\n", encoding="utf-8")
    return ["eval", "align", "--src", str(src), "--tgt", str(tgt), "--gold", str(gold), "--aligner", "eflomal"]


@pytest.mark.parametrize("json_flag", [True, False])
def test_eval_align_prints_json_only_with_json(tiny_gold, capsys, json_flag):
    assert main(tiny_gold + (["--json"] if json_flag else [])) == 0
    out = capsys.readouterr().out
    if json_flag:
        assert {"precision", "recall", "aer", "content_words"} <= set(json.loads(out))
    else:
        assert out.startswith("aligner: eflomal") and "content words" in out and "AER" in out
