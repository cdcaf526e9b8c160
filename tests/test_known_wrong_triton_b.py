"""Tolerances and inputs of the triton2triton family-B tasks (scans, ragged layouts, serving
and loss operators) reject the shortcuts a kernel could take.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs), or one of the task's own declared `wrong.py` variants: it must fail the task's
comparison on at least one configuration, while the reference (computed in float32, rounded
to the native output dtypes) passes on all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import case_ids, check_case, declared

# --- plausible wrong implementations, in plain PyTorch ------------------------------------


def _histc_floor_of_rounded(x, bins, lo, hi):
    # Bin index rounded to nearest instead of floored.
    xf = x.double()
    b = torch.round((xf - lo) * bins / (hi - lo)).long().clamp(0, bins - 1)
    keep = (xf >= lo) & (xf <= hi)
    return torch.bincount(b[keep], minlength=bins).float()


def _jagged_all_padding_kept_long(values, offsets, max_len, pad_value):
    # Sequences longer than max_len padded entirely (dropped) instead of truncated.
    B, D = offsets.shape[0] - 1, values.shape[1]
    o = offsets.long()
    lengths = o[1:] - o[:-1]
    t = torch.arange(max_len)
    keep = (t[None, :] < lengths[:, None]) & (lengths[:, None] <= max_len)
    src = (o[:-1, None] + t[None, :]).clamp(max=max(values.shape[0] - 1, 0))
    out = values[src.reshape(-1)].reshape(B, max_len, D)
    return torch.where(keep[:, :, None], out, torch.full_like(out, pad_value))


def _conv1d_no_padding_zero_fill(x, weight, bias):
    # A 'valid' convolution written into the middle, the borders left at the bias.
    K = weight.shape[2]
    pad = (K - 1) // 2
    y = F.conv1d(x.float(), weight.float(), bias.float())
    out = bias.float()[None, :, None].expand(x.shape[0], -1, x.shape[2]).clone()
    out[:, :, pad:pad + y.shape[2]] = y
    return out.to(x.dtype)


def _triplet_swapped(anchor, positive, negative, margin, eps):
    # Positive and negative swapped.
    loss = F.triplet_margin_loss(anchor.float(), negative.float(), positive.float(),
                                 margin=margin, eps=eps, reduction="none")
    return (loss, loss.mean())


def _triplet_sum(anchor, positive, negative, margin, eps):
    # The 'sum' reduction instead of the mean.
    loss = F.triplet_margin_loss(anchor.float(), positive.float(), negative.float(),
                                 margin=margin, eps=eps, reduction="none")
    return (loss, loss.sum())


def _segment_max_empty_neg_inf_clamped(x, seg_ids, num_segments):
    # Empty segments left at the dtype's lowest finite value instead of 0.
    D = x.shape[1]
    low = torch.finfo(x.dtype).min
    out = torch.full((num_segments, D), low, dtype=x.dtype)
    return out.scatter_reduce(0, seg_ids.long()[:, None].expand(-1, D), x, reduce="amax")


def _lcse_exclusive(x):
    # The exclusive scan (the current element left out; -inf replaced by the first element).
    y = torch.logcumsumexp(x.float(), -1)
    out = torch.cat([x.float()[:, :1], y[:, :-1]], -1)
    return out.to(x.dtype)


def _lora_shared_first_segment_starts(x, lora_a, seg_starts, adapter_ids, scale):
    # Every token given its adapter by position (token t uses segment t % S).
    S = adapter_ids.shape[0]
    T, R = x.shape[0], lora_a.shape[1]
    out = torch.zeros(T, R)
    for t in range(T):
        a = int(adapter_ids[t % S])
        if a >= 0:
            out[t] = scale * (x[t].float() @ lora_a[a].float().T)
    return out


def _wkv_state_before_output(time_decay, time_first, k, v):
    # The current token folded into the state before the output (no separate bonus path).
    w = -torch.exp(time_decay.double())
    kd, vd = k.double(), v.double()
    B, T, C = k.shape
    a = torch.zeros(B, C, dtype=torch.float64)
    b = torch.zeros_like(a)
    p = torch.full_like(a, -1e38)
    y = torch.empty(B, T, C, dtype=torch.float64)
    for t in range(T):
        q = torch.maximum(w + p, kd[:, t])
        e1, e2 = torch.exp(w + p - q), torch.exp(kd[:, t] - q)
        a, b, p = e1 * a + e2 * vd[:, t], e1 * b + e2, q
        y[:, t] = a / b
    return y.to(k.dtype)


def _segcumsum_reset_per_block(x, offsets):
    # The segmented scan restarted every 1024 elements as well (a block scan, no carry).
    T = x.shape[0]
    o = offsets.long()
    seg = torch.bucketize(torch.arange(T), o[1:], right=True)
    starts = torch.maximum(o[seg], (torch.arange(T) // 1024) * 1024)
    c = torch.zeros(T + 1, dtype=torch.float64)
    c[1:] = torch.cumsum(x.double(), 0)
    return (c[1:] - c[starts]).float()


def _median_of_sorted_values_first_index(x):
    # The right value, the column of its first occurrence in the sorted order (argsort index
    # of the median position instead of its column in x).
    v, _ = torch.sort(x, dim=-1)
    k = (x.shape[-1] - 1) // 2
    return (v[:, k], torch.full((x.shape[0],), k, dtype=torch.int64))


def _bag_first_weight_for_all(weight, indices, offsets, per_sample_weights):
    # The per-sample weight of each bag's first index applied to the whole bag.
    o = offsets.long()
    seg = torch.bucketize(torch.arange(indices.shape[0]), o[1:], right=True)
    psw = per_sample_weights.float()[o[seg]]
    out = F.embedding_bag(indices.long(), weight.float(), o[:-1], mode="sum",
                          per_sample_weights=psw)
    return out.to(weight.dtype)


T2T = "triton2triton"
CASES: list[tuple[str, str, Callable[..., Any]]] = [
    (f"{T2T}/histc", "bin index rounded", _histc_floor_of_rounded),
    (f"{T2T}/histc", "max excluded", declared(f"{T2T}/histc", "max_excluded")),
    (f"{T2T}/histc", "out of range clamped", declared(f"{T2T}/histc", "out_of_range_clamped")),
    (f"{T2T}/jagged_to_padded", "long sequences dropped", _jagged_all_padding_kept_long),
    (f"{T2T}/jagged_to_padded", "zero padding", declared(f"{T2T}/jagged_to_padded",
                                                          "zero_padded")),
    (f"{T2T}/jagged_to_padded", "tail kept", declared(f"{T2T}/jagged_to_padded", "keep_tail")),
    (f"{T2T}/conv1d_dense", "borders not computed", _conv1d_no_padding_zero_fill),
    (f"{T2T}/conv1d_dense", "flipped kernel", declared(f"{T2T}/conv1d_dense",
                                                        "flipped_kernel")),
    (f"{T2T}/conv1d_dense", "causal padding", declared(f"{T2T}/conv1d_dense",
                                                        "causal_padding")),
    (f"{T2T}/triplet_margin_loss", "positive and negative swapped", _triplet_swapped),
    (f"{T2T}/triplet_margin_loss", "sum instead of mean", _triplet_sum),
    (f"{T2T}/triplet_margin_loss", "eps outside the norm",
     declared(f"{T2T}/triplet_margin_loss", "eps_outside")),
    (f"{T2T}/segment_max", "empty segments at the lowest value",
     _segment_max_empty_neg_inf_clamped),
    (f"{T2T}/segment_max", "zero-initialized max", declared(f"{T2T}/segment_max",
                                                            "zero_initialized")),
    (f"{T2T}/logcumsumexp_rows", "exclusive scan", _lcse_exclusive),
    (f"{T2T}/logcumsumexp_rows", "no max shift", declared(f"{T2T}/logcumsumexp_rows",
                                                          "no_max_shift")),
    (f"{T2T}/logcumsumexp_rows", "block reset", declared(f"{T2T}/logcumsumexp_rows",
                                                         "block_reset")),
    (f"{T2T}/lora_sgmv_shrink", "adapter by token position", _lora_shared_first_segment_starts),
    (f"{T2T}/lora_sgmv_shrink", "-1 wraps to the last adapter",
     declared(f"{T2T}/lora_sgmv_shrink", "minus_one_wraps")),
    (f"{T2T}/rwkv_wkv", "current token in the state before the output",
     _wkv_state_before_output),
    (f"{T2T}/rwkv_wkv", "no bonus", declared(f"{T2T}/rwkv_wkv", "no_bonus")),
    (f"{T2T}/rwkv_wkv", "unstable float32", declared(f"{T2T}/rwkv_wkv", "unstable_float32")),
    (f"{T2T}/segmented_cumsum", "restarted every block too", _segcumsum_reset_per_block),
    (f"{T2T}/segmented_cumsum", "segments ignored", declared(f"{T2T}/segmented_cumsum",
                                                             "global_cumsum")),
    (f"{T2T}/segmented_cumsum", "exclusive scan", declared(f"{T2T}/segmented_cumsum",
                                                           "exclusive")),
    (f"{T2T}/embedding_bag_sum", "first weight for the whole bag", _bag_first_weight_for_all),
    (f"{T2T}/embedding_bag_sum", "per-sample weights ignored",
     declared(f"{T2T}/embedding_bag_sum", "weights_ignored")),
    (f"{T2T}/embedding_bag_sum", "mean mode", declared(f"{T2T}/embedding_bag_sum",
                                                       "mean_mode")),
    (f"{T2T}/median_rows", "position in sorted order", _median_of_sorted_values_first_index),
    (f"{T2T}/median_rows", "upper median", declared(f"{T2T}/median_rows", "upper_median")),
    (f"{T2T}/median_rows", "mean of the middle two", declared(f"{T2T}/median_rows",
                                                              "mean_of_middle")),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
