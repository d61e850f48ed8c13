"""Shared fixtures: the sample corpus run once per session, and a Flask app over it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paranon.config import load_config
from paranon.pipeline import run

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "corpora" / "samples" / "sample_pt_en.tmx"
GOLD = ROOT / "corpora" / "samples" / "sample_gold.jsonl"
SHARED = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def cfg():
    c = load_config()
    c["workers"] = 1
    # the whole suite with the other search backend: PARANON_TEST_INDEX_BACKEND=whoosh python -m pytest
    c["index"]["backend"] = os.environ.get("PARANON_TEST_INDEX_BACKEND", c["index"]["backend"])
    return c


@pytest.fixture(scope="session")
def sample_out(tmp_path_factory, cfg) -> Path:
    out = tmp_path_factory.mktemp("sample-out")
    run(SAMPLE, out, cfg, quiet=True)
    return out


@pytest.fixture(scope="session")
def en():
    """The English side's second-line recognizer."""
    from paranon.align.english import EnglishRecognizer

    return EnglishRecognizer()


@pytest.fixture(scope="session")
def anonymizer(cfg):
    from paranon.anonymize.engine import Anonymizer

    return Anonymizer(cfg)


@pytest.fixture()
def app(sample_out):
    from paranon.search_portal.app import create_app

    return create_app({"OUTDIR": str(sample_out), "TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


def needs_shared(path: Path):
    return pytest.mark.skipif(not path.exists(), reason=f"{path} not present (../shared data sets)")
