"""eflomal settings: how many iterations a corpus of a given size gets, and which settings are refused."""

from __future__ import annotations

import pytest
from paranon.align.aligners import EflomalAligner

from paranon.settings import Settings


def eflomal(**changed) -> EflomalAligner:
    """The aligner of the default settings, with ``changed`` constructor arguments."""
    return EflomalAligner(**{**EflomalAligner.arguments(Settings.of({})), **changed})

ITERATIONS = [  # setting, lines of training text, iterations per model
    ("auto", 336, 65),         # small corpora need many iterations (the sample: 65)
    ("auto", 100, 100),        # never above 100
    ("auto", 2_217, 25),       # the EN-PT gold with the DGT text
    ("auto", 40_000, 6),       # 6, 10 and 20 give the same recall at this size
    ("auto", 1_000_000, 5),    # never below 5
    (12, 40_000, 12),          # a number is used as given
    (None, 40_000, None),      # null: eflomal's own rule
]


@pytest.mark.parametrize("setting,lines,expected", ITERATIONS)
def test_iterations_shrink_as_the_corpus_grows(setting, lines, expected):
    assert eflomal(iterations=setting).iterations_for(lines) == expected


@pytest.mark.parametrize("setting,lines,expected", [("auto", 336, 3), ("auto", 1_999, 3), ("auto", 2_000, 1),
                                                     ("auto", 40_000, 1), (2, 40_000, 2)])
def test_small_corpora_get_three_samplers(setting, lines, expected):
    assert eflomal(samplers=setting).samplers_for(lines) == expected


@pytest.mark.parametrize("setting", [0, -3, "many"])
def test_a_bad_iteration_setting_is_a_clear_error(setting):
    with pytest.raises(ValueError, match="eflomal_iterations"):
        eflomal(iterations=setting)


@pytest.mark.parametrize("setting", [0, "many"])
def test_a_bad_sampler_setting_is_a_clear_error(setting):
    with pytest.raises(ValueError, match="eflomal_samplers"):
        eflomal(samplers=setting)
