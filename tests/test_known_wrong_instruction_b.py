"""Known-wrong variants of the second batch of instruction2triton tasks (elu_alpha,
cummax_rows, row_argmin, gated_residual, bias_softplus, row_variance_unbiased,
fake_quant_grid) and of three torch2triton tasks (sdpa_causal, mlp_gelu_block,
conv_bn_relu_inference) fail their task's comparison on the CPU configurations, while the
reference passes; the eager PyTorch operator each task is timed against passes too.

Each case is a plausible wrong implementation in plain PyTorch: the functions the task's
wrong.py declares (called as the arena calls them: on float64 copies when the task upcasts,
the result cast to the output's dtype) and a few more written here (a 16-bit intermediate that
cancels, log(1 + e) without log1p, a block-local index, a mean taken from one block, the
softmax not renormalized after masking, the padding border dropped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import (
    TASKS,
    case_ids,
    check_case,
    task_module,
    verdicts,
)

I = "instruction2triton/"
T = "torch2triton/"
NAMES = [I + n for n in ("elu_alpha", "cummax_rows", "row_argmin", "gated_residual",
                         "bias_softplus", "row_variance_unbiased",
                         "fake_quant_grid")] + [
    T + n for n in ("sdpa_causal", "mlp_gelu_block", "conv_bn_relu_inference")]


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _like(out: Any, native: Any) -> Any:
    if isinstance(native, torch.Tensor):
        return out.to(native.dtype)
    return tuple(o.to(n.dtype) for o, n in zip(out, native, strict=True))


def _wrong(task_id: str, fn: str) -> Callable[..., Any]:
    """A declared wrong variant, called like the arena calls it."""
    def run(*args):
        task = TASKS[task_id]
        native = task_module(task, "reference").reference(*args)
        wrong = getattr(task_module(task, "wrong"), fn)
        upcast = _cast(args, torch.float64) if task.reference_upcast else args
        return _like(wrong(*upcast), native)
    return run


# --- plausible wrong implementations, in plain PyTorch ------------------------------------

def _elu_exp_minus_one_in_16_bits(x, alpha):
    # exp(x) rounded to the 16-bit dtype before the subtraction: cancels near x = 0.
    return torch.where(x > 0, x, alpha * (torch.exp(x) - 1.0))


def _elu_alpha_in_exponent(x, alpha):
    xf = x.float()
    return torch.where(xf > 0, xf, alpha * torch.expm1(alpha * xf)).to(x.dtype)


def _gated_sigmoid_forgotten(x, g, y):
    return (x.float() + g.float() * y.float()).to(x.dtype)


def _gated_gate_negated(x, g, y):
    return (x.float() + torch.sigmoid(-g.float()) * y.float()).to(x.dtype)


def _quant_floor(x, step, qmin, qmax):
    return (torch.clamp(torch.floor(x.float() / step), qmin, qmax) * step).to(x.dtype)


def _quant_scale_inverted(x, step, qmin, qmax):
    return (torch.clamp(torch.round(x.float() * step), qmin, qmax) / step).to(x.dtype)


def _softplus_naive_log(x, bias, beta, threshold):
    # log(1 + exp(beta * z)) in float32 without log1p: loses the small outputs' accuracy.
    z = x.float() + bias.float()
    soft = torch.log(1.0 + torch.exp(beta * z)) / beta
    return torch.where(z * beta > threshold, z, soft).to(x.dtype)


def _softplus_bias_after(x, bias, beta, threshold):
    return (F.softplus(x.float(), beta=beta, threshold=threshold) + bias.float()).to(x.dtype)


def _variance_mean_of_first_block(x):
    # The mean taken from the row's first 1024 elements only (a kernel that kept its first
    # block's mean): the variance about the wrong centre.
    xf = x.float()
    mean = xf[:, :1024].mean(-1, keepdim=True)
    return ((xf - mean) ** 2).sum(-1) / (x.shape[-1] - 1)


def _cummax_of_abs(x):
    return torch.cummax(x.float().abs(), dim=-1).values.to(x.dtype)


def _cummax_carry_one_block_late(x):
    # Blocks of 1024 scanned alone, each taking the previous block's own maximum as carry
    # (not the running one).
    xf = x.float()
    out = torch.empty_like(xf)
    carry = None
    for s in range(0, x.shape[-1], 1024):
        part = torch.cummax(xf[:, s:s + 1024], dim=-1).values
        out[:, s:s + 1024] = part if carry is None else torch.maximum(part, carry[:, None])
        carry = xf[:, s:s + 1024].amax(-1)
    return out.to(x.dtype)


def _argmin_block_local_index(x):
    return torch.argmin(x, dim=-1) % 1024


def _attention_not_renormalized(q, k, v):
    # Softmax over every key, then the keys after the query zeroed without renormalizing.
    qf, kf, vf = q.float(), k.float(), v.float()
    S = q.shape[2]
    p = torch.softmax((qf @ kf.transpose(-2, -1)) * q.shape[-1] ** -0.5, dim=-1)
    p = p * torch.ones(S, S, dtype=torch.bool).tril()
    return (p @ vf).to(q.dtype)


def _mlp_gelu_after_second_linear(x, w1, b1, w2, b2):
    h = F.linear(x.float(), w1.float(), b1.float())
    return F.gelu(F.linear(h, w2.float(), b2.float()), approximate="tanh").to(x.dtype)


def _conv_border_dropped(x, w, gamma, beta, running_mean, running_var):
    # A 'valid' convolution placed in the interior, the one-pixel border left at zero.
    xf = x.float()
    y = F.conv2d(xf, w.float(), padding=1)
    y = F.batch_norm(y, running_mean.float(), running_var.float(), gamma.float(), beta.float(),
                     training=False, eps=1e-5)
    y = torch.relu(y)
    y[:, :, 0, :] = 0
    y[:, :, -1, :] = 0
    y[:, :, :, 0] = 0
    y[:, :, :, -1] = 0
    return y.to(x.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    (I + "elu_alpha", "alpha ignored", _wrong(I + "elu_alpha", "alpha_ignored")),
    (I + "elu_alpha", "CELU", _wrong(I + "elu_alpha", "celu")),
    (I + "elu_alpha", "alpha on both sides", _wrong(I + "elu_alpha", "alpha_on_both_sides")),
    (I + "elu_alpha", "SELU's scale", _wrong(I + "elu_alpha", "selu_scale")),
    (I + "elu_alpha", "exp(x) - 1 in 16 bits", _elu_exp_minus_one_in_16_bits),
    (I + "elu_alpha", "alpha inside the exponential", _elu_alpha_in_exponent),
    (I + "cummax_rows", "cummin", _wrong(I + "cummax_rows", "cummin")),
    (I + "cummax_rows", "suffix maximum", _wrong(I + "cummax_rows", "suffix_max")),
    (I + "cummax_rows", "row maximum everywhere", _wrong(I + "cummax_rows", "row_max")),
    (I + "cummax_rows", "no carry between blocks", _wrong(I + "cummax_rows", "blockwise_1024")),
    (I + "cummax_rows", "running maximum of |x|", _cummax_of_abs),
    (I + "cummax_rows", "carry from the previous block only", _cummax_carry_one_block_late),
    (I + "row_argmin", "last index on ties", _wrong(I + "row_argmin", "last_index_on_ties")),
    (I + "row_argmin", "argmax", _wrong(I + "row_argmin", "argmax")),
    (I + "row_argmin", "argmin of |x|", _wrong(I + "row_argmin", "argmin_of_abs")),
    (I + "row_argmin", "block-local index", _argmin_block_local_index),
    (I + "gated_residual", "gate on x", _wrong(I + "gated_residual", "gate_on_x")),
    (I + "gated_residual", "tanh gate", _wrong(I + "gated_residual", "tanh_gate")),
    (I + "gated_residual", "highway mix",
     _wrong(I + "gated_residual", "complementary_gate")),
    (I + "gated_residual", "SiLU gate", _wrong(I + "gated_residual", "silu_gate")),
    (I + "gated_residual", "sigmoid forgotten", _gated_sigmoid_forgotten),
    (I + "gated_residual", "gate negated", _gated_gate_negated),
    (I + "bias_softplus", "default beta and threshold",
     _wrong(I + "bias_softplus", "default_beta")),
    (I + "bias_softplus", "no threshold", _wrong(I + "bias_softplus", "no_threshold")),
    (I + "bias_softplus", "threshold compared with z",
     _wrong(I + "bias_softplus", "threshold_on_z")),
    (I + "bias_softplus", "bias ignored", _wrong(I + "bias_softplus", "bias_ignored")),
    (I + "bias_softplus", "bias per row", _wrong(I + "bias_softplus", "bias_per_row")),
    (I + "bias_softplus", "log(1 + exp) without log1p in float32", _softplus_naive_log),
    (I + "bias_softplus", "bias added after the softplus", _softplus_bias_after),
    (I + "row_variance_unbiased", "biased variance",
     _wrong(I + "row_variance_unbiased", "biased")),
    (I + "row_variance_unbiased", "standard deviation",
     _wrong(I + "row_variance_unbiased", "standard_deviation")),
    (I + "row_variance_unbiased", "not centred",
     _wrong(I + "row_variance_unbiased", "not_centred")),
    (I + "row_variance_unbiased", "mean of the first block only",
     _variance_mean_of_first_block),
    (I + "fake_quant_grid", "ties away from zero",
     _wrong(I + "fake_quant_grid", "half_away_from_zero")),
    (I + "fake_quant_grid", "ties up", _wrong(I + "fake_quant_grid", "half_up")),
    (I + "fake_quant_grid", "truncation", _wrong(I + "fake_quant_grid", "truncation")),
    (I + "fake_quant_grid", "no clamp", _wrong(I + "fake_quant_grid", "no_clamp")),
    (I + "fake_quant_grid", "symmetric clamp",
     _wrong(I + "fake_quant_grid", "symmetric_clamp")),
    (I + "fake_quant_grid", "floor", _quant_floor),
    (I + "fake_quant_grid", "step inverted", _quant_scale_inverted),
    (T + "sdpa_causal", "not causal", _wrong(T + "sdpa_causal", "not_causal")),
    (T + "sdpa_causal", "mask reversed", _wrong(T + "sdpa_causal", "mask_reversed")),
    (T + "sdpa_causal", "unscaled", _wrong(T + "sdpa_causal", "unscaled")),
    (T + "sdpa_causal", "scaled by 1 / D", _wrong(T + "sdpa_causal", "scaled_by_d")),
    (T + "sdpa_causal", "masked after the softmax, not renormalized",
     _attention_not_renormalized),
    (T + "mlp_gelu_block", "ReLU", _wrong(T + "mlp_gelu_block", "relu")),
    (T + "mlp_gelu_block", "no activation", _wrong(T + "mlp_gelu_block", "no_activation")),
    (T + "mlp_gelu_block", "first bias dropped",
     _wrong(T + "mlp_gelu_block", "first_bias_dropped")),
    (T + "mlp_gelu_block", "second bias dropped",
     _wrong(T + "mlp_gelu_block", "second_bias_dropped")),
    (T + "mlp_gelu_block", "GELU after the second linear", _mlp_gelu_after_second_linear),
    (T + "conv_bn_relu_inference", "batch statistics",
     _wrong(T + "conv_bn_relu_inference", "batch_statistics")),
    (T + "conv_bn_relu_inference", "no ReLU", _wrong(T + "conv_bn_relu_inference", "no_relu")),
    (T + "conv_bn_relu_inference", "ReLU before the batch norm",
     _wrong(T + "conv_bn_relu_inference", "relu_before_bn")),
    (T + "conv_bn_relu_inference", "variance as the standard deviation",
     _wrong(T + "conv_bn_relu_inference", "variance_as_std")),
    (T + "conv_bn_relu_inference", "flipped filter",
     _wrong(T + "conv_bn_relu_inference", "flipped_filter")),
    (T + "conv_bn_relu_inference", "padding border dropped", _conv_border_dropped),
]


def test_every_case_names_a_bundled_task():
    assert {c[0] for c in CASES} <= set(TASKS)
    assert {c[0] for c in CASES} == set(NAMES)


@pytest.mark.parametrize("task_id", NAMES)
def test_eager_baseline_passes(task_id):
    """The eager operator the task times against is itself within the task's tolerance."""
    task = TASKS[task_id]
    assert task.baseline is not None and task.baseline.file == "baseline.py"
    baseline = getattr(task_module(task, "baseline.py"), task.baseline.function)
    assert all(verdicts(task, baseline)), f"{task_id}: the eager baseline fails its own task"


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
