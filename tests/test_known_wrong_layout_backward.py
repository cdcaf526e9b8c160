"""Tolerances and inputs of the layout, backward and small fused training-block tasks reject
the shortcuts a kernel could take.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs): a reshape in place of a permute, the tanh-GELU derivative for the erf one,
replicate instead of reflect padding, a causal mask off by one at the diagonal, a forgotten
dropout scale. It must fail the task's comparison on at least one configuration, while the
reference itself (computed in float32, rounded to the native output dtypes) passes on all of
them.
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


def _wrong(task_id: str, name: str) -> Callable[..., Any]:
    """A known-wrong variant the task declares in its wrong.py (loaded when the case runs)."""
    def run(*args):
        return getattr(task_module(TASKS[task_id], "wrong.py"), name)(*args)
    return run


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _gelu_backward_rounded_grad(x, dy):
    # gelu'(x) rounded to the input dtype before the multiply (a 16-bit intermediate buffer).
    xf = x.float()
    grad = 0.5 * (1.0 + torch.erf(xf * 0.7071067811865476)) \
        + xf * torch.exp(-0.5 * xf * xf) * 0.3989422804014327
    return (dy.float() * grad.to(torch.bfloat16).float()).to(x.dtype)


def _log_softmax_backward_mean(y, dy):
    return (dy.float() - torch.exp(y.float()) * dy.float().mean(-1, keepdim=True)).to(y.dtype)


def _group_norm_backward_instance_stats(x, dy, weight, mean, rstd):
    # Channel (instance-norm) means of g and g * xhat instead of group means.
    B, C, HW = x.shape
    G = mean.shape[1]
    xf, dyf = x.float(), dy.float()
    mean_c = mean.repeat_interleave(C // G, dim=1)[..., None]
    rstd_c = rstd.repeat_interleave(C // G, dim=1)[..., None]
    xhat = (xf - mean_c) * rstd_c
    g = weight.float()[None, :, None] * dyf
    dx = rstd_c * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
    return (dx.to(x.dtype), (dyf * xhat).sum((0, 2)).to(x.dtype), dyf.sum((0, 2)).to(x.dtype))


def _dropout_scaled_by_keep_prob(x, bias, residual, keep, p):
    v = (x.float() + bias.float()) * (1.0 - p)
    return (residual.float() + torch.where(keep, v, torch.zeros_like(v))).to(x.dtype)


def _pad_circular(x, pl, pr, pt, pb):
    return torch.nn.functional.pad(x, (pl, pr, pt, pb), mode="circular")


def _causal_softmax_unmasked(x, scale):
    return torch.softmax(x.float() * scale, dim=-1).to(x.dtype)


def _layernorm_stats_in_input_dtype(x):
    # Statistics rounded to x's dtype before normalizing (and saved that way).
    xf = x.float()
    mean = xf.mean(-1).to(x.dtype).float()
    var = (xf - mean[:, None]).pow(2).mean(-1)
    rstd = torch.rsqrt(var + 1e-5).to(x.dtype).float()
    return (((xf - mean[:, None]) * rstd[:, None]).to(x.dtype), mean, rstd)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/gelu_backward", "tanh-approximation derivative",
     _wrong("triton2triton/gelu_backward", "tanh_gelu_backward")),
    ("triton2triton/gelu_backward", "x * phi(x) term left out",
     _wrong("triton2triton/gelu_backward", "gelu_cdf_only")),
    ("triton2triton/gelu_backward", "gelu'(x) kept in a bfloat16 buffer",
     _gelu_backward_rounded_grad),
    ("triton2triton/swiglu_backward", "silu'(g) taken as sigmoid(g)",
     _wrong("triton2triton/swiglu_backward", "sigmoid_as_silu_grad")),
    ("triton2triton/swiglu_backward", "gate and up exchanged",
     _wrong("triton2triton/swiglu_backward", "gate_and_up_swapped")),
    ("triton2triton/log_softmax_backward", "y used where exp(y) belongs",
     _wrong("triton2triton/log_softmax_backward", "y_not_exponentiated")),
    ("triton2triton/log_softmax_backward", "softmax backward formula",
     _wrong("triton2triton/log_softmax_backward", "softmax_backward_formula")),
    ("triton2triton/log_softmax_backward", "mean of dy instead of its sum",
     _log_softmax_backward_mean),
    ("triton2triton/group_norm_backward", "xhat * mean(g * xhat) term left out",
     _wrong("triton2triton/group_norm_backward", "no_xhat_term")),
    ("triton2triton/group_norm_backward", "group means over dy, not weight * dy",
     _wrong("triton2triton/group_norm_backward", "weight_left_out_of_means")),
    ("triton2triton/group_norm_backward", "per-channel instead of per-group means",
     _group_norm_backward_instance_stats),
    ("triton2triton/bias_dropout_add", "1 / (1 - p) scale forgotten",
     _wrong("triton2triton/bias_dropout_add", "no_scale")),
    ("triton2triton/bias_dropout_add", "scaled by 1 - p", _dropout_scaled_by_keep_prob),
    ("triton2triton/bias_dropout_add", "mask read as a drop-mask",
     _wrong("triton2triton/bias_dropout_add", "mask_inverted")),
    ("triton2triton/bias_dropout_add", "bias added after the dropout",
     _wrong("triton2triton/bias_dropout_add", "bias_outside_dropout")),
    ("triton2triton/pixel_shuffle", "sub-pixel row and column offsets exchanged",
     _wrong("triton2triton/pixel_shuffle", "subpixel_ij_swapped")),
    ("triton2triton/pixel_shuffle", "DCR channel order",
     _wrong("triton2triton/pixel_shuffle", "dcr_channel_order")),
    ("triton2triton/pad2d_reflect", "replicate padding",
     _wrong("triton2triton/pad2d_reflect", "replicate_padding")),
    ("triton2triton/pad2d_reflect", "symmetric padding (edge repeated)",
     _wrong("triton2triton/pad2d_reflect", "symmetric_padding")),
    ("triton2triton/pad2d_reflect", "circular padding", _pad_circular),
    ("triton2triton/cat_rows_interleave", "y and z in the wrong order",
     _wrong("triton2triton/cat_rows_interleave", "y_and_z_swapped")),
    ("triton2triton/cat_rows_interleave", "inputs stacked as blocks, not row by row",
     _wrong("triton2triton/cat_rows_interleave", "stacked_not_interleaved")),
    ("triton2triton/causal_mask_softmax_scale", "key after the query kept",
     _wrong("triton2triton/causal_mask_softmax_scale", "one_past_diagonal_kept")),
    ("triton2triton/causal_mask_softmax_scale", "diagonal masked",
     _wrong("triton2triton/causal_mask_softmax_scale", "diagonal_masked")),
    ("triton2triton/causal_mask_softmax_scale", "scale left out",
     _wrong("triton2triton/causal_mask_softmax_scale", "no_scale")),
    ("triton2triton/causal_mask_softmax_scale", "no causal mask", _causal_softmax_unmasked),
    ("triton2triton/layernorm_no_affine_fp32_stats", "unbiased variance",
     _wrong("triton2triton/layernorm_no_affine_fp32_stats", "unbiased_variance")),
    ("triton2triton/layernorm_no_affine_fp32_stats", "eps outside the square root",
     _wrong("triton2triton/layernorm_no_affine_fp32_stats", "eps_outside_root")),
    ("triton2triton/layernorm_no_affine_fp32_stats", "std saved where rstd belongs",
     _wrong("triton2triton/layernorm_no_affine_fp32_stats", "std_saved_not_rstd")),
    ("triton2triton/layernorm_no_affine_fp32_stats", "statistics rounded to the input dtype",
     _layernorm_stats_in_input_dtype),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
