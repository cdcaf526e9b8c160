"""Task sanity checks run by `aka tasks check`, inside the worker, on the pristine baseline.

A task whose outputs are constant, all zero, or the same for every seed cannot tell a correct
kernel from a wrong one; a baseline that gives different results on identical inputs makes every
correctness verdict a coin flip.
"""

from __future__ import annotations

from typing import Any

import torch

from agentkernelarena.evaluate.compare import as_tensor_list, compare_values, identical


def _clone(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


def config_issues(evaluation: Any, name: str, params: dict[str, Any]) -> list[str]:
    """Problems of one configuration; `evaluation` is the worker's `Evaluation`."""
    issues: list[str] = []
    seed_a, seed_b = evaluation.split["seeds"][:2]
    args_a = evaluation.make_inputs(params, seed_a)
    args_a2 = evaluation.make_inputs(params, seed_a)
    args_b = evaluation.make_inputs(params, seed_b)
    for index, (a, a2) in enumerate(zip(args_a, args_a2, strict=True)):
        if isinstance(a, torch.Tensor) and not identical(a, a2):
            issues.append(f"{name}: make_inputs is not deterministic for a given seed "
                          f"(input {index} differs)")
        if isinstance(a, torch.Tensor) and a.is_floating_point() and a.numel() > 1:
            if bool((a == a.flatten()[0]).all()):
                issues.append(f"{name}: input {index} is constant")
    if all(identical(a, b) for a, b in zip(args_a, args_b, strict=True)
           if isinstance(a, torch.Tensor)):
        issues.append(f"{name}: make_inputs gives the same inputs for different seeds")

    first = evaluation.baseline_fn(*_clone(args_a))
    second = evaluation.baseline_fn(*_clone(args_a))
    if compare_values(first, second, evaluation.tolerances) is not None:
        issues.append(f"{name}: two baseline runs on identical inputs disagree beyond tolerance")
    firsts = as_tensor_list(first)
    for index, o1 in enumerate(firsts):
        if o1.numel() > 1 and bool((o1 == o1.flatten()[0]).all()):
            issues.append(f"{name}: output {index} is constant ({float(o1.flatten()[0]):g})")
    blind, zero = _persistent_outputs(evaluation, params, seed_b, args_b, firsts)
    issues += [f"{name}: output {index} does not change with the seed" for index in blind]
    issues += [f"{name}: output {index} is all zero" for index in zero]
    ref_1 = evaluation.reference(_clone(args_a))
    ref_2 = evaluation.reference(_clone(args_a))
    if any(not identical(r1, r2) for r1, r2 in zip(as_tensor_list(ref_1),
                                                      as_tensor_list(ref_2), strict=True)):
        issues.append(f"{name}: the reference is not deterministic")
    return issues


# A small output (one row's argmin, a count) can coincide between two seeds, or be zero for one,
# by chance: 1/N for the position of a median among N. Such an output is flagged only when it
# stays the same (or zero) over this many further seeds, which no honest task does by chance.
EXTRA_SEEDS = 8


def _persistent_outputs(evaluation: Any, params: dict[str, Any], seed: int,
                        args: tuple[Any, ...], firsts: list[torch.Tensor]
                        ) -> tuple[list[int], list[int]]:
    """(seed-blind, all-zero): the outputs identical to `firsts`, and those all zero in `firsts`
    that stay zero, for `seed` (whose inputs are `args`) and the EXTRA_SEEDS - 1 seeds after
    it. The baseline runs once a seed, for both rules, and no further once neither can hold."""
    blind = set(range(len(firsts)))
    zero = {i for i, o in enumerate(firsts) if o.numel() > 0 and not bool(o.bool().any())}
    for offset in range(EXTRA_SEEDS):
        if offset:
            args = evaluation.make_inputs(params, seed + offset)
        others = as_tensor_list(evaluation.baseline_fn(*_clone(args)))
        blind = {i for i in blind if identical(firsts[i], others[i])}
        zero = {i for i in zero if not bool(others[i].bool().any())}
        if not blind and not zero:
            break
    return sorted(blind), sorted(zero)
