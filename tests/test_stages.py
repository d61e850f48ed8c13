"""The pieces the run is built of: one numbering authority, the checkpoint folder, stages that travel as settings."""

from __future__ import annotations

import pickle

import pytest
from paranon.anonymize.numbering import EntityNumbers

from paranon.stage_anonymize import AnonymizeStage
from paranon.stage_consistency import ConsistencyStage
from paranon.stage_transfer import TransferStage, WriteStage
from paranon.workdir import WorkDir


@pytest.mark.parametrize("start, known, keys, numbers", [
    (1, None, ["PERSON:rui", "ORG:x", "PERSON:rui", "DATE:1"], [1, 2, 1, 3]),  # first appearance, one number a key
    (5, {"rui": 2}, ["rui", "ana", "ana"], [2, 5, 5]),                         # a scope's known forms keep theirs
    (0, {"eu": 7}, ["eu"], [7]),
])
def test_a_key_keeps_its_number_and_a_new_one_takes_the_next(start, known, keys, numbers):
    scope = EntityNumbers(start, known)
    assert [scope.of(k) for k in keys] == numbers


@pytest.mark.parametrize("used, floor, first_new", [
    ([3, 7], 1, 8),   # past every number the scope's mentions use
    ([], 4, 4),       # nothing used: the floor (the document's next free number)
    ([], 1, 1),
    ([2], 9, 9),
])
def test_a_scope_counts_on_past_what_its_mentions_use(used, floor, first_new):
    assert EntityNumbers.above(used, floor).new() == first_new


def test_numbers_a_later_step_dropped_are_free_again():
    scope = EntityNumbers(3)
    assert [scope.new(), scope.new()] == [3, 4]
    assert scope.past([3], 3) == 4 and scope.new() == 4  # the mention numbered 4 was dropped


class NotPicklable:
    def __reduce__(self):
        raise TypeError("process state must not travel with a stage")


@pytest.mark.parametrize("make, state", [
    (lambda w: AnonymizeStage({"src": "pt"}, w, NotPicklable()), ["anonymizer"]),
    (lambda w: ConsistencyStage({"src": "pt"}, w, NotPicklable(), NotPicklable()), ["anonymizer", "forms"]),
    (lambda w: TransferStage({"src": "pt"}, w, NotPicklable(), NotPicklable(), NotPicklable()),
     ["anonymizer", "forms", "finisher"]),
    (lambda w: WriteStage({"src": "pt"}, w, NotPicklable(), NotPicklable()), ["anonymizer", "finisher", "targets"]),
])
def test_a_stage_travels_as_its_settings_and_builds_its_state_where_it_runs(tmp_path, make, state):
    copy = pickle.loads(pickle.dumps(make(WorkDir(tmp_path))))
    assert copy.cfg == {"src": "pt"} and copy.work.path == tmp_path
    assert all(getattr(copy, name) is None for name in state)


@pytest.mark.parametrize("second, restart, resumed", [
    ("same", False, True),    # the same input and settings: the checkpoints are kept
    ("other", False, False),  # another input or config: started over
    ("same", True, False),    # --restart
])
def test_checkpoints_are_kept_only_for_the_same_fingerprint(tmp_path, second, restart, resumed):
    work, was = WorkDir.open(tmp_path, "same", False)
    work.dump(WorkDir.chunk("anon", 0), {"items": []})
    again, was_again = WorkDir.open(tmp_path, second, restart)
    assert not was and was_again is resumed and again.has("anon-000000.pkl") is resumed


def test_a_stage_is_done_once_its_record_is_written(tmp_path):
    work, _ = WorkDir.open(tmp_path, "f", False)
    assert work.done("align") is None
    work.mark_done("align", {"aligner": "eflomal"})
    assert work.done("align") == {"aligner": "eflomal"}
