"""Tolerances and inputs of these torch2cuda tasks reject the shortcuts a kernel could take, and
accept the eager PyTorch operator each task is timed against.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs). It must fail the task's comparison on at least one configuration, while the
reference (computed in float32, rounded to the native output dtypes) and the task's eager
baseline (baseline.py, in the native dtypes) pass on all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import TASKS, case_ids, check_case, declared, task_module, verdicts

NAMES = ["upsample_nearest_add", "batchnorm_relu_inference", "masked_softmax", "cross_entropy",
         "moe_gating_topk", "causal_depthwise_conv1d", "cumsum_rows", "group_norm", "avg_pool2d",
         "embedding_bag_mean", "linear_relu", "attention_sdpa"]


# --- plausible wrong implementations, in plain PyTorch ------------------------------------

def _upsample_bilinear(fine, coarse):
    up = F.interpolate(coarse.float(), scale_factor=2.0, mode="bilinear", align_corners=False)
    return (fine.float() + up).to(fine.dtype)


def _upsample_coarse_transposed(fine, coarse):
    # Row and column of the coarse map swapped (only defined where h == w; elsewhere the map is
    # upsampled by repeating whole rows 4 times along the width: a flat-index slip).
    c = coarse.float()
    if c.shape[2] == c.shape[3]:
        c = c.transpose(2, 3)
        up = c.repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)
    else:
        up = c.repeat_interleave(2, dim=3).repeat_interleave(2, dim=2).flip(2)
    return (fine.float() + up).to(fine.dtype)


def _bn_eps_outside(x, weight, bias, running_mean, running_var):
    inv = 1.0 / (running_var.sqrt() + 1e-5)
    y = (x.float() - running_mean[:, None, None]) * (weight * inv)[:, None, None]
    return torch.relu(y + bias[:, None, None]).to(x.dtype)


def _bn_no_relu(x, weight, bias, running_mean, running_var):
    y = F.batch_norm(x.float(), running_mean, running_var, weight, bias, training=False, eps=1e-5)
    return y.to(x.dtype)


def _bn_scale_shift_swapped(x, weight, bias, running_mean, running_var):
    # The bias scaled with the weight: (x - mean) / std * w + b * w.
    inv = torch.rsqrt(running_var + 1e-5)
    y = ((x.float() - running_mean[:, None, None]) * inv[:, None, None] + bias[:, None, None])
    return torch.relu(y * weight[:, None, None]).to(x.dtype)


def _softmax_mask_ignored(x, mask):
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


def _softmax_dead_rows_nan(x, mask):
    return torch.softmax(x.float().masked_fill(mask, float("-inf")), dim=-1).to(x.dtype)


def _softmax_mask_inverted(x, mask):
    keep = mask
    s = x.float().masked_fill(~keep, float("-inf"))
    return torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0).to(x.dtype)


def _ce_in_logits_dtype(logits, targets):
    # The log-softmax computed in the logits' own 16-bit dtype.
    lp = torch.log_softmax(logits, dim=-1)
    picked = -lp.gather(1, targets.clamp(min=0)[:, None])[:, 0].float()
    return torch.where(targets == -100, torch.zeros_like(picked), picked)


def _ce_ignored_scored(logits, targets):
    lf = logits.float()
    t = targets.clamp(min=0)
    return torch.logsumexp(lf, -1) - lf.gather(1, t[:, None])[:, 0]


def _ce_label_smoothing(logits, targets):
    return F.cross_entropy(logits.float(), targets, reduction="none", label_smoothing=0.1)


def _ce_mean_broadcast(logits, targets):
    loss = F.cross_entropy(logits.float(), targets, reduction="none")
    return torch.full_like(loss, float(loss.sum() / (targets != -100).sum()))


def _gate_dense(scores, k=4, renormalize=True):
    w, ids = torch.topk(scores, k, -1)
    if renormalize:
        w = w / w.sum(-1, keepdim=True)
    return torch.zeros_like(scores).scatter_(1, ids, w)


def _gate_top2(router_logits):
    return _gate_dense(torch.softmax(router_logits.float(), -1), k=2)


def _gate_softmax_not_masked(router_logits):
    # The full softmax returned: the experts not chosen keep their probabilities.
    return torch.softmax(router_logits.float(), -1)


def _gate_lowest_experts(router_logits):
    # The k smallest probabilities chosen (a comparison turned around).
    probs = torch.softmax(router_logits.float(), -1)
    w, ids = torch.topk(probs, 4, -1, largest=False)
    return torch.zeros_like(probs).scatter_(1, ids, w / w.sum(-1, keepdim=True))


def _gate_bf16_arithmetic(router_logits):
    probs = torch.softmax(router_logits.to(torch.bfloat16), -1)
    return _gate_dense(probs).float()


def _conv_no_silu(x, weight, bias):
    C, K = weight.shape
    y = F.conv1d(x.float(), weight.float().unsqueeze(1), bias.float(), padding=K - 1, groups=C)
    return y[..., : x.shape[-1]].to(x.dtype)


def _conv_last_outputs_kept(x, weight, bias):
    # The last L outputs of the padded convolution kept instead of the first L (anti-causal).
    C, K = weight.shape
    y = F.conv1d(x.float(), weight.float().unsqueeze(1), bias.float(), padding=K - 1, groups=C)
    return F.silu(y[..., K - 1:]).to(x.dtype)


def _conv_no_bias(x, weight, bias):
    C, K = weight.shape
    y = F.conv1d(x.float(), weight.float().unsqueeze(1), None, padding=K - 1, groups=C)
    return F.silu(y[..., : x.shape[-1]]).to(x.dtype)


def _cumsum_16bit_accumulator(x):
    out = torch.empty_like(x)
    acc = torch.zeros(x.shape[0], dtype=x.dtype)
    for n in range(x.shape[1]):
        acc = (acc.float() + x[:, n].float()).to(x.dtype)
        out[:, n] = acc
    return out


def _cumsum_reversed(x):
    return torch.cumsum(x.float().flip(-1), -1).flip(-1).to(x.dtype)


def _gn_instance_norm(x, weight, bias):
    # Per-channel statistics (InstanceNorm) instead of per-group ones.
    y = F.instance_norm(x.float(), eps=1e-5)
    return (y * weight.float()[:, None, None] + bias.float()[:, None, None]).to(x.dtype)


def _gn_layer_norm(x, weight, bias):
    # One group: statistics over the whole sample.
    y = F.group_norm(x.float(), 1, None, None, eps=1e-5)
    return (y * weight.float()[:, None, None] + bias.float()[:, None, None]).to(x.dtype)


def _gn_affine_per_group(x, weight, bias):
    # The weight and bias of a group's first channel applied to all its channels.
    g = x.shape[1] // 32
    w = weight.float().reshape(32, g)[:, :1].expand(32, g).reshape(-1)
    b = bias.float().reshape(32, g)[:, :1].expand(32, g).reshape(-1)
    return F.group_norm(x.float(), 32, w, b, eps=1e-5).to(x.dtype)


def _pool_include_pad(x):
    return F.avg_pool2d(x.float(), 3, 2, 1, count_include_pad=True).to(x.dtype)


def _pool_max(x):
    return F.max_pool2d(x.float(), 3, 2, 1).to(x.dtype)


def _pool_2x2(x):
    # A 2 x 2 window (stride 2, no padding) where the output size allows it.
    xf = F.pad(x.float(), (0, 1, 0, 1), mode="replicate")
    return F.avg_pool2d(xf, 2, 2, 0, ceil_mode=True)[..., : (x.shape[2] - 1) // 2 + 1,
                                                      : (x.shape[3] - 1) // 2 + 1].to(x.dtype)


def _bag_mode_sum(weight, indices, offsets):
    return F.embedding_bag(indices, weight.float(), offsets, mode="sum").to(weight.dtype)


def _bag_divided_by_average_length(weight, indices, offsets):
    sums = F.embedding_bag(indices, weight.float(), offsets, mode="sum")
    return (sums * offsets.numel() / indices.numel()).to(weight.dtype)


def _bag_mode_max(weight, indices, offsets):
    return F.embedding_bag(indices, weight.float(), offsets, mode="max").to(weight.dtype)


def _linear_no_relu(x, weight, bias):
    return F.linear(x.float(), weight.float(), bias.float()).to(x.dtype)


def _linear_no_bias(x, weight, bias):
    return F.relu(F.linear(x.float(), weight.float())).to(x.dtype)


def _linear_weight_not_transposed(x, weight, bias):
    # weight read as K x N (row-major x @ W) where it is N x K: only square weights have the
    # shape; elsewhere the transposed storage is reinterpreted.
    w = weight.float().reshape(weight.shape[1], weight.shape[0])
    return F.relu(x.float() @ w + bias.float()).to(x.dtype)


def _attn_no_scale(q, k, v):
    return F.scaled_dot_product_attention(q.float(), k.float(), v.float(), scale=1.0).to(q.dtype)


def _attn_softmax_over_queries(q, k, v):
    scores = (q.float() @ k.float().transpose(-1, -2)) * q.shape[-1] ** -0.5
    return (torch.softmax(scores, dim=-2) @ v.float()).to(q.dtype)


def _attn_fp8_probabilities(q, k, v):
    # Probabilities rounded to float8 (e4m3) before the product with v.
    scores = (q.float() @ k.float().transpose(-1, -2)) * q.shape[-1] ** -0.5
    p = torch.softmax(scores, dim=-1).to(torch.float8_e4m3fn).float()
    return (p @ v.float()).to(q.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("upsample_nearest_add", "bilinear upsampling", _upsample_bilinear),
    ("upsample_nearest_add", "coarse map transposed", _upsample_coarse_transposed),
    ("upsample_nearest_add", "declared: bilinear",
     declared("torch2cuda/upsample_nearest_add", "bilinear")),
    ("upsample_nearest_add", "declared: row shifted by one",
     declared("torch2cuda/upsample_nearest_add", "shifted_by_one_row")),
    ("batchnorm_relu_inference", "eps outside the square root", _bn_eps_outside),
    ("batchnorm_relu_inference", "ReLU left out", _bn_no_relu),
    ("batchnorm_relu_inference", "bias scaled by the weight", _bn_scale_shift_swapped),
    ("batchnorm_relu_inference", "declared: batch statistics",
     declared("torch2cuda/batchnorm_relu_inference", "batch_statistics")),
    ("masked_softmax", "mask ignored", _softmax_mask_ignored),
    ("masked_softmax", "fully masked rows left NaN", _softmax_dead_rows_nan),
    ("masked_softmax", "mask read as keep", _softmax_mask_inverted),
    ("masked_softmax", "declared: masked scores zeroed",
     declared("torch2cuda/masked_softmax", "masked_scores_zeroed")),
    ("masked_softmax", "declared: dead rows uniform",
     declared("torch2cuda/masked_softmax", "dead_rows_uniform")),
    ("cross_entropy", "log-softmax in the logits' dtype", _ce_in_logits_dtype),
    ("cross_entropy", "ignored targets scored as class 0", _ce_ignored_scored),
    ("cross_entropy", "label smoothing 0.1", _ce_label_smoothing),
    ("cross_entropy", "the mean loss for every row", _ce_mean_broadcast),
    ("cross_entropy", "declared: max for logsumexp",
     declared("torch2cuda/cross_entropy", "max_for_logsumexp")),
    ("cross_entropy", "declared: ignore index wrapped",
     declared("torch2cuda/cross_entropy", "ignored_rows_scored")),
    ("moe_gating_topk", "top-2 instead of top-4", _gate_top2),
    ("moe_gating_topk", "unchosen experts not zeroed", _gate_softmax_not_masked),
    ("moe_gating_topk", "the lowest experts chosen", _gate_lowest_experts),
    ("moe_gating_topk", "bfloat16 arithmetic", _gate_bf16_arithmetic),
    ("moe_gating_topk", "declared: not renormalized",
     declared("torch2cuda/moe_gating_topk", "not_renormalized")),
    ("moe_gating_topk", "declared: sigmoid scores",
     declared("torch2cuda/moe_gating_topk", "sigmoid_scores")),
    ("causal_depthwise_conv1d", "SiLU left out", _conv_no_silu),
    ("causal_depthwise_conv1d", "anti-causal window", _conv_last_outputs_kept),
    ("causal_depthwise_conv1d", "bias left out", _conv_no_bias),
    ("causal_depthwise_conv1d", "declared: taps flipped",
     declared("torch2cuda/causal_depthwise_conv1d", "flipped_taps")),
    ("causal_depthwise_conv1d", "declared: centred window",
     declared("torch2cuda/causal_depthwise_conv1d", "centred_window")),
    ("cumsum_rows", "16-bit running sum", _cumsum_16bit_accumulator),
    ("cumsum_rows", "suffix sums", _cumsum_reversed),
    ("cumsum_rows", "declared: exclusive scan", declared("torch2cuda/cumsum_rows", "exclusive")),
    ("cumsum_rows", "declared: tiles not carried",
     declared("torch2cuda/cumsum_rows", "tiles_not_carried")),
    ("group_norm", "per-channel statistics", _gn_instance_norm),
    ("group_norm", "one group", _gn_layer_norm),
    ("group_norm", "affine per group", _gn_affine_per_group),
    ("group_norm", "declared: interleaved groups",
     declared("torch2cuda/group_norm", "interleaved_groups")),
    ("group_norm", "declared: unbiased variance",
     declared("torch2cuda/group_norm", "unbiased_variance")),
    ("avg_pool2d", "padding counted", _pool_include_pad),
    ("avg_pool2d", "max pooling", _pool_max),
    ("avg_pool2d", "2 x 2 windows", _pool_2x2),
    ("avg_pool2d", "declared: no padding window",
     declared("torch2cuda/avg_pool2d", "no_padding_window")),
    ("embedding_bag_mean", "sum mode", _bag_mode_sum),
    ("embedding_bag_mean", "divided by the average bag length", _bag_divided_by_average_length),
    ("embedding_bag_mean", "max mode", _bag_mode_max),
    ("embedding_bag_mean", "declared: last bag dropped",
     declared("torch2cuda/embedding_bag_mean", "last_bag_dropped")),
    ("linear_relu", "ReLU left out", _linear_no_relu),
    ("linear_relu", "bias left out", _linear_no_bias),
    ("linear_relu", "weight storage read as K x N", _linear_weight_not_transposed),
    ("linear_relu", "declared: bias after ReLU", declared("torch2cuda/linear_relu",
                                                         "bias_after_relu")),
    ("attention_sdpa", "no 1 / sqrt(D) scale", _attn_no_scale),
    ("attention_sdpa", "softmax over the queries", _attn_softmax_over_queries),
    ("attention_sdpa", "float8 probabilities", _attn_fp8_probabilities),
    ("attention_sdpa", "declared: causal mask", declared("torch2cuda/attention_sdpa", "causal")),
    ("attention_sdpa", "declared: scaled by 1 / D",
     declared("torch2cuda/attention_sdpa", "scale_by_d")),
]


@pytest.mark.parametrize("name", NAMES)
def test_eager_baseline_passes(name):
    """The eager operator the task times against is itself within the task's tolerance."""
    task = TASKS[f"torch2cuda/{name}"]
    assert task.baseline is not None and task.baseline.file == "baseline.py"
    baseline = getattr(task_module(task, "baseline.py"), task.baseline.function)
    assert all(verdicts(task, baseline)), f"{name}: the eager baseline fails its own task"


@pytest.mark.parametrize(("name", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(name, what, variant):
    check_case(f"torch2cuda/{name}", what, variant)
