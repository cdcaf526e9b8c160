"""Tolerances and inputs of the torch2hip tasks of batch b reject the shortcuts a kernel could
take, and accept the eager PyTorch operator each task is timed against.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs): a forgotten rounding step, the wrong axis, the wrong statistics, a dropped term.
It must fail the task's comparison on at least one configuration, while the reference
(computed in float32, rounded to the native output dtypes) and the task's eager baseline
(baseline.py, in the native dtypes) pass on all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import TASKS, case_ids, check_case, declared, task_module, verdicts

NAMES = ["mse_loss_rows", "max_pool2d", "huber_loss", "cumsum_reverse", "argmax_rows",
         "instance_norm", "adaptive_avg_pool2d", "batchnorm_train_forward",
         "layernorm_residual", "bmm_softmax", "linear_gelu", "mlp_block",
         "attention_block_causal", "conv2d_3x3_relu"]


# --- plausible wrong implementations, in plain PyTorch ------------------------------------

def _mse_mean_over_all(pred, target):
    # One mean over the whole batch, broadcast to every row.
    d = pred.float() - target.float()
    return (d * d).mean().expand(pred.shape[0]).to(pred.dtype)


def _mse_rounded_squares(pred, target):
    # The difference rounded to the dtype, squared, and the square rounded again (eager-style
    # temporaries): fine for float32, but the mean of a 16-bit accumulator is not.
    d = (pred.float() - target.float()).to(pred.dtype)
    acc = torch.zeros(pred.shape[0], dtype=pred.dtype)
    for n in range(pred.shape[1]):
        acc = (acc.float() + d[:, n].float() ** 2).to(pred.dtype)
    return (acc.float() / pred.shape[1]).to(pred.dtype)


def _maxpool_right_column_ignored(x):
    # Only the left column of each window (a 2 x 1 window).
    H2, W2 = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    v = x[:, :, :H2, 0:W2:2]
    return torch.maximum(v[:, :, 0::2], v[:, :, 1::2]).contiguous()


def _maxpool_overlapping_3x3(x):
    return F.max_pool2d(x.float(), 3, 2, padding=1)[:, :, :x.shape[2] // 2,
                                                    :x.shape[3] // 2].to(x.dtype)


def _huber_delta_one(pred, target):
    return F.huber_loss(pred.float(), target.float(), reduction="none", delta=1.0).to(pred.dtype)


def _cumsum_float16_accumulator(x):
    # A running sum kept in float16.
    acc = torch.zeros(x.shape[0], dtype=torch.float16)
    out = torch.empty_like(x)
    for j in range(x.shape[1] - 1, -1, -1):
        acc = (acc.float() + x[:, j].float()).half()
        out[:, j] = acc.float()
    return out


def _cumsum_chunk_carry_lost(x):
    # A chunked scan that forgets the carry from the chunks after the current one.
    out = torch.empty_like(x)
    for start in range(0, x.shape[1], 64):
        chunk = x[:, start:start + 64]
        out[:, start:start + 64] = chunk.flip(-1).cumsum(-1).flip(-1)
    return out


def _argmax_index_within_block(x):
    # The column within a 64-column block, its offset forgotten.
    return torch.argmax(x, dim=-1) % 64


def _instance_norm_row_statistics(x, w, b):
    # Statistics per image row (over W only) instead of per plane.
    xf = x.double()
    mean = xf.mean(dim=3, keepdim=True)
    var = (xf - mean).pow(2).mean(dim=3, keepdim=True)
    y = (xf - mean) / torch.sqrt(var + 1e-5)
    return (y * w.double().view(1, -1, 1, 1) + b.double().view(1, -1, 1, 1)).to(x.dtype)


def _instance_norm_channel_of_plane_index(x, w, b):
    # The affine parameters of channel n instead of c (the plane's sample index used).
    xf = x.double()
    mean = xf.mean(dim=(2, 3), keepdim=True)
    var = (xf - mean).pow(2).mean(dim=(2, 3), keepdim=True)
    y = (xf - mean) / torch.sqrt(var + 1e-5)
    C = x.shape[1]
    idx = torch.arange(x.shape[0]) % C
    return (y * w.double()[idx].view(-1, 1, 1, 1) + b.double()[idx].view(-1, 1, 1, 1)).to(x.dtype)


def _adaptive_avg_global(x):
    # Global average pooling broadcast to 7 x 7.
    return x.float().mean(dim=(2, 3), keepdim=True).expand(-1, -1, 7, 7).contiguous().to(x.dtype)


def _adaptive_avg_nearest_resize(x):
    return F.interpolate(x.float(), size=(7, 7), mode="nearest").to(x.dtype)


def _batchnorm_first_sample_statistics(x, w, b):
    xf = x.double()
    mean = xf[:1].mean(dim=(0, 2, 3), keepdim=True)
    var = (xf[:1] - mean).pow(2).mean(dim=(0, 2, 3), keepdim=True)
    y = (xf - mean) / torch.sqrt(var + 1e-5)
    return (y * w.double().view(1, -1, 1, 1) + b.double().view(1, -1, 1, 1)).to(x.dtype)


def _layernorm_residual_unrounded_h_returned_rounded_y_of_x(x, residual, w, b):
    h = (x.double() + residual.double()).to(x.dtype)
    y = F.layer_norm(h.double(), (x.shape[-1],), w.double(), b.double(), 1e-5)
    return y.to(x.dtype), h


def _layernorm_residual_rms(x, residual, w, b):
    h = (x.double() + residual.double()).to(x.dtype)
    hf = h.double()
    y = hf * torch.rsqrt(hf.pow(2).mean(-1, keepdim=True) + 1e-5) * w.double() + b.double()
    return h, y.to(x.dtype)


def _bmm_softmax_first_b_for_all(a, b):
    # The first batch entry of b used for every batch entry.
    s = torch.bmm(a.float(), b.float()[:1].expand_as(b).transpose(1, 2))
    return torch.softmax(s, dim=-1).to(a.dtype)


def _bmm_softmax_b_not_transposed(a, b):
    # b's memory read as K x N.
    bt = b.float().reshape(b.shape[0], b.shape[2], b.shape[1])
    return torch.softmax(torch.bmm(a.float(), bt), dim=-1).to(a.dtype)


def _linear_gelu_relu(x, w, b):
    return F.relu(x.float() @ w.float().T + b.float()).to(x.dtype)


def _linear_gelu_bias_after_gelu(x, w, b):
    return (F.gelu(x.float() @ w.float().T) + b.float()).to(x.dtype)


def _mlp_relu_after_second_layer(x, w1, b1, w2, b2):
    hidden = x.float() @ w1.float().T + b1.float()
    return torch.relu(hidden @ w2.float().T + b2.float()).to(x.dtype)


def _mlp_hidden_bias_dropped(x, w1, b1, w2, b2):
    hidden = torch.relu(x.float() @ w1.float().T)
    return (hidden @ w2.float().T + b2.float()).to(x.dtype)


def _attention_keys_of_first_head(q, k, v):
    # Every head attends to the keys and values of head 0.
    S, D = q.shape[-2], q.shape[-1]
    k0, v0 = k.float()[:, :1].expand_as(k), v.float()[:, :1].expand_as(v)
    scores = q.float() @ k0.transpose(-2, -1) * D**-0.5
    mask = torch.ones(S, S, dtype=torch.bool).triu(1)
    return (torch.softmax(scores.masked_fill(mask, float("-inf")), -1) @ v0).to(q.dtype)


def _conv_no_zero_padding_edges_clamped(x, w, b):
    # Taps outside the image clamped to the border (replicate padding) instead of zero.
    xp = F.pad(x.float(), (1, 1, 1, 1), mode="replicate")
    return torch.relu(F.conv2d(xp, w.float(), b.float())).to(x.dtype)


def _conv_channels_swapped(x, w, b):
    # The weight read as Cin x Cout (its first two dimensions swapped in the indexing).
    wt = w.float().reshape(w.shape[1], w.shape[0], 3, 3).transpose(0, 1)
    return torch.relu(F.conv2d(x.float(), wt, b.float(), padding=1)).to(x.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("mse_loss_rows", "one mean over the whole batch", _mse_mean_over_all),
    ("mse_loss_rows", "a 16-bit accumulator", _mse_rounded_squares),
    ("mse_loss_rows", "declared: sum, not mean", declared("torch2hip/mse_loss_rows",
                                                          "sum_not_mean")),
    ("max_pool2d", "right column of each window ignored", _maxpool_right_column_ignored),
    ("max_pool2d", "3 x 3 windows with padding", _maxpool_overlapping_3x3),
    ("huber_loss", "delta 1 instead of 0.5", _huber_delta_one),
    ("huber_loss", "declared: smooth L1", declared("torch2hip/huber_loss", "smooth_l1")),
    ("cumsum_reverse", "a float16 running sum", _cumsum_float16_accumulator),
    ("cumsum_reverse", "carry between chunks lost", _cumsum_chunk_carry_lost),
    ("argmax_rows", "index within a 64-column block", _argmax_index_within_block),
    ("argmax_rows", "declared: argmax of |x|", declared("torch2hip/argmax_rows",
                                                        "argmax_of_abs")),
    ("instance_norm", "statistics per image row", _instance_norm_row_statistics),
    ("instance_norm", "affine of the sample index", _instance_norm_channel_of_plane_index),
    ("adaptive_avg_pool2d", "global average broadcast", _adaptive_avg_global),
    ("adaptive_avg_pool2d", "nearest-neighbour resize", _adaptive_avg_nearest_resize),
    ("batchnorm_train_forward", "statistics of the first sample",
     _batchnorm_first_sample_statistics),
    ("layernorm_residual", "outputs in the wrong order",
     _layernorm_residual_unrounded_h_returned_rounded_y_of_x),
    ("layernorm_residual", "RMS norm instead of LayerNorm", _layernorm_residual_rms),
    ("bmm_softmax", "first b for every batch entry", _bmm_softmax_first_b_for_all),
    ("bmm_softmax", "b not transposed", _bmm_softmax_b_not_transposed),
    ("linear_gelu", "ReLU instead of GELU", _linear_gelu_relu),
    ("linear_gelu", "bias added after the GELU", _linear_gelu_bias_after_gelu),
    ("mlp_block", "ReLU after the second layer", _mlp_relu_after_second_layer),
    ("mlp_block", "hidden bias dropped", _mlp_hidden_bias_dropped),
    ("attention_block_causal", "keys and values of head 0 for all",
     _attention_keys_of_first_head),
    ("attention_block_causal", "declared: no causal mask",
     declared("torch2hip/attention_block_causal", "no_mask")),
    ("conv2d_3x3_relu", "replicate padding instead of zeros", _conv_no_zero_padding_edges_clamped),
    ("conv2d_3x3_relu", "weight indexed as Cin x Cout", _conv_channels_swapped),
]


@pytest.mark.parametrize("name", NAMES)
def test_eager_baseline_passes(name):
    """The eager operator the task times against is itself within the task's tolerance."""
    task = TASKS[f"torch2hip/{name}"]
    assert task.baseline is not None and task.baseline.file == "baseline.py"
    baseline = getattr(task_module(task, "baseline.py"), task.baseline.function)
    assert all(verdicts(task, baseline)), f"{name}: the eager baseline fails its own task"


@pytest.mark.parametrize(("name", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(name, what, variant):
    check_case(f"torch2hip/{name}", what, variant)


def test_float16_running_sum_is_what_the_cumsum_variant_models():
    """The float16 running-sum variant differs from the exact one on a long row."""
    x = torch.rand(1, 4096)
    exact = x.flip(-1).cumsum(-1).flip(-1)
    assert not torch.allclose(_cumsum_float16_accumulator(x), exact, rtol=1e-4, atol=1e-4)
