"""Known-wrong variants of the instruction2triton tasks fail their task's comparison on the CPU
configurations, while the reference passes.

Each case is a plausible wrong implementation in plain PyTorch: the functions the task's
wrong.py declares (called as the arena calls them, on float64 copies, the result cast to the
output's dtype) and a few more written in native precision (an intermediate rounded to 16 bits,
a forgotten absolute value, an upper clamp left out, an off-by-one mirror index).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import (
    TASKS,
    case_ids,
    check_case,
    task_module,
)

P = "instruction2triton/"


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _like(out: Any, native: Any) -> Any:
    if isinstance(native, torch.Tensor):
        return out.to(native.dtype)
    return tuple(o.to(n.dtype) for o, n in zip(out, native, strict=True))


def _wrong(name: str, fn: str) -> Callable[..., Any]:
    """A declared wrong variant, called like the arena calls it."""
    def run(*args):
        task = TASKS[P + name]
        native = task_module(task, "reference").reference(*args)
        wrong = getattr(task_module(task, "wrong"), fn)
        upcast = _cast(args, torch.float64) if task.reference_upcast else args
        return _like(wrong(*upcast), native)
    return run


def _product_rounded(a, b, c, lo, hi):
    # a * b rounded to the 16-bit dtype before c is added (cancellation magnifies it).
    return torch.clamp((a * b).float() + c.float(), lo, hi).to(a.dtype)


def _signed_sum(x):
    return (x.float() / x.float().sum(-1, keepdim=True).abs().clamp_min(1e-12)).to(x.dtype)


def _mirror_off_by_one(x):
    return torch.roll(torch.flip(x, dims=[-1]), 1, dims=-1)


def _relu_not_relu6(x):
    xf = x.float()
    return (xf * torch.relu(xf + 3.0) / 6.0).to(x.dtype)


def _superdiagonal(x, d):
    out = x.clone()
    n = x.shape[0]
    out[torch.arange(n - 1), torch.arange(1, n)] += d[:-1]
    return out


def _leaky_by_dy_sign(dy, x, slope):
    return torch.where(dy > 0, dy, dy * slope)


def _rms_instead_of_norm(g, max_norm):
    rms = torch.sqrt((g * g).mean())
    return g * torch.clamp(max_norm / (rms + 1e-6), max=1.0)


def _scaled_twice(a, b, s):
    return (a.float()[:, None] * b.float()[None, :] * s * s).to(a.dtype)


def _weights_from_the_end(x, w):
    return (x.float() * w.flip(0)).sum(-1)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    (P + "fused_add_mul_clamp", "no clamp", _wrong("fused_add_mul_clamp", "no_clamp")),
    (P + "fused_add_mul_clamp", "clamp before the add",
     _wrong("fused_add_mul_clamp", "clamp_before_add")),
    (P + "fused_add_mul_clamp", "c broadcast along the wrong axis",
     _wrong("fused_add_mul_clamp", "c_per_row")),
    (P + "fused_add_mul_clamp", "a * b rounded to 16 bits", _product_rounded),
    (P + "row_l1_normalize", "no eps", _wrong("row_l1_normalize", "no_eps")),
    (P + "row_l1_normalize", "L2 norm", _wrong("row_l1_normalize", "l2_norm")),
    (P + "row_l1_normalize", "mean of |x|", _wrong("row_l1_normalize", "mean_abs")),
    (P + "row_l1_normalize", "abs forgotten in the sum", _signed_sum),
    (P + "weighted_sum_rows", "unweighted", _wrong("weighted_sum_rows", "unweighted")),
    (P + "weighted_sum_rows", "w rounded to 16 bits",
     _wrong("weighted_sum_rows", "w_rounded_to_x_dtype")),
    (P + "weighted_sum_rows", "mean", _wrong("weighted_sum_rows", "mean")),
    (P + "weighted_sum_rows", "w indexed from the end", _weights_from_the_end),
    (P + "masked_row_max", "mask ignored", _wrong("masked_row_max", "mask_ignored")),
    (P + "masked_row_max", "mask inverted", _wrong("masked_row_max", "mask_inverted")),
    (P + "masked_row_max", "rows without a true element give 0, not -inf",
     _wrong("masked_row_max", "empty_rows_zero")),
    (P + "leaky_relu_backward", "x == 0 treated as positive",
     _wrong("leaky_relu_backward", "zero_counts_as_positive")),
    (P + "leaky_relu_backward", "ReLU backward", _wrong("leaky_relu_backward", "relu_backward")),
    (P + "leaky_relu_backward", "sides swapped", _wrong("leaky_relu_backward", "sides_swapped")),
    (P + "leaky_relu_backward", "sign of dy instead of x", _leaky_by_dy_sign),
    (P + "sum_pool_1d", "mean pooling", _wrong("sum_pool_1d", "mean_pool")),
    (P + "sum_pool_1d", "partial window dropped",
     _wrong("sum_pool_1d", "partial_window_dropped")),
    (P + "sum_pool_1d", "partial window averaged", _wrong("sum_pool_1d", "partial_window_mean")),
    (P + "reverse_rows", "identity", _wrong("reverse_rows", "identity")),
    (P + "reverse_rows", "rows reversed too", _wrong("reverse_rows", "rows_reversed_too")),
    (P + "reverse_rows", "row order reversed", _wrong("reverse_rows", "row_order_reversed")),
    (P + "reverse_rows", "mirror index off by one", _mirror_off_by_one),
    (P + "hard_swish", "hard sigmoid", _wrong("hard_swish", "hard_sigmoid")),
    (P + "hard_swish", "no +3 shift", _wrong("hard_swish", "no_shift")),
    (P + "hard_swish", "SiLU", _wrong("hard_swish", "silu")),
    (P + "hard_swish", "ReLU instead of ReLU6", _relu_not_relu6),
    (P + "outer_product_scale", "unscaled", _wrong("outer_product_scale", "unscaled")),
    (P + "outer_product_scale", "divided by s", _wrong("outer_product_scale", "divided_by_s")),
    (P + "outer_product_scale", "scaled twice", _scaled_twice),
    (P + "diag_extract_add", "anti-diagonal", _wrong("diag_extract_add", "anti_diagonal")),
    (P + "diag_extract_add", "d broadcast over rows", _wrong("diag_extract_add", "row_broadcast")),
    (P + "diag_extract_add", "diagonal replaced by d",
     _wrong("diag_extract_add", "diagonal_replaced")),
    (P + "diag_extract_add", "d not added", _wrong("diag_extract_add", "not_added")),
    (P + "diag_extract_add", "superdiagonal", _superdiagonal),
    (P + "interleave_two", "b first", _wrong("interleave_two", "b_first")),
    (P + "interleave_two", "concatenated", _wrong("interleave_two", "concatenated")),
    (P + "interleave_two", "b ignored", _wrong("interleave_two", "b_ignored")),
    (P + "clip_grad_norm_scale", "always scaled", _wrong("clip_grad_norm_scale", "always_scaled")),
    (P + "clip_grad_norm_scale", "never scaled", _wrong("clip_grad_norm_scale", "never_scaled")),
    (P + "clip_grad_norm_scale", "squared norm", _wrong("clip_grad_norm_scale", "squared_norm")),
    (P + "clip_grad_norm_scale", "RMS instead of the norm", _rms_instead_of_norm),
]


def test_every_case_names_a_bundled_task():
    assert {c[0] for c in CASES} <= set(TASKS)


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
