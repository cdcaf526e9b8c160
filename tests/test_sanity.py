"""`aka tasks check`'s sanity rules on the baseline: seed blindness and all-zero outputs.

A small output can coincide between two seeds by chance (the position of a median among 34
values, 1 in 34); such a task is sound and must not be flagged, while an output that ignores the
seed altogether must be.
"""

from __future__ import annotations

import torch

from agentkernelarena.evaluate.sanity import EXTRA_SEEDS, config_issues


class FakeEvaluation:
    """The parts of the worker's Evaluation that the sanity rules use."""

    def __init__(self, baseline, seeds=(1, 2)):
        self.split = {"seeds": list(seeds)}
        self.baseline_fn = baseline
        self.tolerances = {"float32": (0.0, 0.0), "int64": (0, 0)}

    def make_inputs(self, params, seed):
        return (torch.arange(4.0) + seed,)

    def reference(self, args):
        return self.baseline_fn(*args)


def _issues(baseline) -> list[str]:
    return config_issues(FakeEvaluation(baseline), "c", {})


def test_an_honest_task_has_no_issues() -> None:
    assert _issues(lambda x: x * 2) == []


def test_a_position_that_coincides_for_one_seed_is_not_seed_blind() -> None:
    # seeds 1 and 2 give the same one-element answer; seed 3 does not
    assert _issues(lambda x: torch.tensor([7 if x[0] < 3 else 9])) == []


def test_an_output_that_ignores_the_seed_is_flagged() -> None:
    assert _issues(lambda x: (x * 2, torch.tensor([5]))) == [
        "c: output 1 does not change with the seed"]


def test_an_output_zero_for_one_seed_only_is_not_all_zero() -> None:
    # zero for seed 1, not for the further seeds
    assert _issues(lambda x: (x, (x[:1] - 1).long())) == []


def test_an_output_zero_for_every_seed_is_flagged() -> None:
    issues = _issues(lambda x: (x, torch.zeros(3)))
    assert "c: output 1 is all zero" in issues
    assert "c: output 1 does not change with the seed" in issues


def test_the_extra_seeds_are_bounded() -> None:
    calls = []

    def baseline(x):
        calls.append(float(x[0]))
        return torch.tensor([5])

    _issues(baseline)
    # two runs on seed 1, seed 2 and its successors for the seed rule (the output is not zero,
    # so the zero rule runs nothing more), and the fake reference's two runs
    assert len(calls) == 2 + EXTRA_SEEDS + 2
