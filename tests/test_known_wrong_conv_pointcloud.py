"""Tolerances and inputs of the convolution, pooling, resampling and point-cloud triton2triton
tasks reject the shortcuts a kernel could take.

Each case is a plausible wrong implementation of a task (in plain PyTorch, the task's own
wrong.py variants, on the task's CPU configurations and inputs): it must fail the task's
comparison on at least one configuration, while the reference itself (computed in float32 and
rounded to the native output dtypes) passes on every one.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import pytest
import torch

from agentkernelarena.evaluate.compare import compare_values
from agentkernelarena.tasks.loader import discover_tasks

TASKS = {t.id: t for t in discover_tasks()}

# (task id, wrong.py function, what it gets wrong)
CASES: list[tuple[str, str, str]] = [
    ("triton2triton/conv2d_nhwc", "flipped_filter", "convolution instead of cross-correlation"),
    ("triton2triton/conv2d_nhwc", "swapped_rs", "filter rows and columns swapped (KSRC)"),
    ("triton2triton/depthwise_conv2d", "flipped_filter",
     "convolution instead of cross-correlation"),
    ("triton2triton/depthwise_conv2d", "transposed_filter", "filter transposed"),
    ("triton2triton/max_pool2d", "zero_padding", "padded with 0 instead of -inf"),
    ("triton2triton/avg_pool2d", "count_include_pad", "count_include_pad=True"),
    ("triton2triton/upsample_bilinear2d", "align_corners", "align_corners=True"),
    ("triton2triton/upsample_bilinear2d", "unclamped_source",
     "negative source coordinates not clamped to 0"),
    ("triton2triton/adaptive_avg_pool2d", "uniform_windows",
     "uniform avg_pool2d windows (stride H // OH)"),
    ("triton2triton/adaptive_avg_pool2d", "floor_end", "window ends rounded down"),
    ("triton2triton/knn_points", "not_squared", "Euclidean instead of squared distances"),
    ("triton2triton/knn_points", "descending", "neighbours in descending order"),
    ("triton2triton/ball_query", "pad_zero", "missing slots padded with 0"),
    ("triton2triton/ball_query", "nearest_k", "the k nearest instead of the first k"),
    ("triton2triton/farthest_point_sampling", "ties_to_largest", "ties to the largest index"),
    ("triton2triton/farthest_point_sampling", "last_point_only",
     "distance to the last sample only, not the running minimum"),
    ("triton2triton/three_nn_interpolate", "reversed_weights",
     "weights paired with the neighbours in reverse order"),
    ("triton2triton/three_nn_interpolate", "uniform_weights", "plain mean, weights ignored"),
    ("triton2triton/im2col", "channels_last_rows", "rows ordered (kh, kw, c)"),
    ("triton2triton/conv3d", "flipped_filter", "convolution instead of cross-correlation"),
    ("triton2triton/conv3d", "swapped_tr", "filter depth and row axes swapped"),
]


def _module(task: Any, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"{name}_{task.name}", task.root / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _in_float32(reference: Callable[..., Any]) -> Callable[..., Any]:
    """The reference computed in float32, rounded to its native output dtypes: what a correct
    kernel returns (16-bit arithmetic on the CPU is not)."""
    def run(*args):
        native = reference(*args)
        out = reference(*_cast(args, torch.float32))
        if isinstance(native, torch.Tensor):
            return out.to(native.dtype)
        return tuple(o.to(n.dtype) for o, n in zip(out, native, strict=True))
    return run


def _verdicts(task: Any, fn: Callable[..., Any]) -> list[bool]:
    """Per CPU configuration: does `fn` pass the task's comparison?"""
    module = _module(task, "reference")
    tol = {k: (v.atol, v.rtol) for k, v in task.tolerance.items()}
    passed = []
    for config in task.cpu_visible + task.cpu_held_out:
        args = module.make_inputs(config.params, 7, "cpu")
        ref_args = _cast(args, torch.float64) if task.reference_upcast else args
        with torch.no_grad():
            expected = module.reference(*ref_args)
            got = fn(*args)
        passed.append(compare_values(got, expected, tol) is None)
    return passed


@pytest.mark.parametrize(("task_id", "variant", "what"), CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_known_wrong_variant_fails(task_id, variant, what):
    task = TASKS[task_id]
    reference = _in_float32(_module(task, "reference").reference)
    assert all(_verdicts(task, reference)), f"{task_id}: the reference itself fails"
    wrong = _in_float32(getattr(_module(task, "wrong"), variant))
    assert not all(_verdicts(task, wrong)), f"{task_id}: '{what}' passes the tolerance"
