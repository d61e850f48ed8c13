"""What every ``paranon`` sub-command shares: the common options, the settings they make, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .settings import Settings, load_settings


def common_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="settings YAML (see paranon/defaults.yaml for every key)")
    p.add_argument("--src", help="source language (default: the setting src)")
    p.add_argument("--tgt", help="target language (default: the setting tgt)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


class Renamed(argparse.Action):
    """An option's old spelling: it still works, and says the one to use on stderr."""

    def __init__(self, option_strings: list[str], dest: str, new: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"paranon: note: {option_string} is spelled {self.new} now", file=sys.stderr)
        setattr(namespace, self.dest, values)


def settings_of(args: argparse.Namespace) -> Settings:
    """A command's settings: defaults <- --config <- its options (each checked as a config file's value)."""
    opt = lambda name: getattr(args, name, None)  # noqa: E731
    return load_settings(opt("config"), {
        "src": opt("src"), "tgt": opt("tgt"), "workers": opt("workers"), "scheduler": opt("scheduler"),
        "input.strict": True if opt("strict") else None, "input.format": opt("format"),
        "input.src_col": opt("src_col"), "input.tgt_col": opt("tgt_col"), "align.method": opt("aligner")})


def config_of(args: argparse.Namespace) -> dict[str, Any]:
    """The settings as the mapping the stages not yet handed their typed section read."""
    return settings_of(args).as_dict()


def print_json(obj: dict) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))
