"""Tolerances and inputs of a second batch of hip2hip tasks reject the shortcuts a kernel could
take.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs): padding tokens written to the cache, a segment's end row included, the gate
weights left unnormalized, farthest point sampling without the running minimum. It must fail
the task's comparison on at least one configuration, while the reference (computed in float32,
rounded to the native output dtypes) passes on all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import case_ids, check_case, declared

# --- hip2hip/reshape_and_cache ------------------------------------------------------------


def _cache_keys_only(key, value, k_cache, v_cache, slot_mapping):
    NB, BS, H, D = k_cache.shape
    k_out = k_cache.clone().view(NB * BS, H, D)
    keep = slot_mapping >= 0
    k_out[slot_mapping[keep]] = key[keep]
    return (k_out.view(NB, BS, H, D), v_cache.clone())


def _cache_token_order(key, value, k_cache, v_cache, slot_mapping):
    # Token t written to slot t (the slot mapping ignored), padding skipped.
    NB, BS, H, D = k_cache.shape
    k_out = k_cache.clone().view(NB * BS, H, D)
    v_out = v_cache.clone().view(NB * BS, H, D)
    keep = torch.nonzero(slot_mapping >= 0)[:, 0]
    k_out[keep] = key[keep]
    v_out[keep] = value[keep]
    return (k_out.view(NB, BS, H, D), v_out.view(NB, BS, H, D))


# --- hip2hip/segment_sum ------------------------------------------------------------------


def _segment_first_row_skipped(x, offsets):
    S = offsets.shape[0] - 1
    out = torch.zeros(S, x.shape[1], dtype=torch.float32)
    for s in range(S):
        out[s] = x[int(offsets[s]) + 1:int(offsets[s + 1])].float().sum(0)
    return out


def _segment_sum_in_input_dtype(x, offsets):
    # Accumulated in x's own dtype (float16/bfloat16 partial sums).
    S = offsets.shape[0] - 1
    out = torch.zeros(S, x.shape[1], dtype=x.dtype)
    for s in range(S):
        acc = torch.zeros(x.shape[1], dtype=x.dtype)
        for r in range(int(offsets[s]), int(offsets[s + 1])):
            acc = acc + x[r]
        out[s] = acc
    return out.float()


# --- hip2hip/moe_topk_softmax -------------------------------------------------------------


def _moe_smallest(logits, topk_weights, topk_ids):
    k = topk_ids.shape[1]
    w, ids = torch.topk(torch.softmax(logits.float(), -1), k, dim=-1, largest=False)
    return (w / w.sum(-1, keepdim=True), ids.to(torch.int32))


def _moe_sigmoid(logits, topk_weights, topk_ids):
    k = topk_ids.shape[1]
    w, ids = torch.topk(torch.sigmoid(logits.float()), k, dim=-1)
    return (w / w.sum(-1, keepdim=True), ids.to(torch.int32))


# --- hip2hip/farthest_point_sampling ------------------------------------------------------


def _fps_start_last(points, idx):
    # The sampling started at index N - 1 instead of 0.
    B, N, _ = points.shape
    npoint = idx.shape[1]
    out = torch.zeros(B, npoint, dtype=torch.int64)
    rows = torch.arange(B)
    last = torch.full((B,), N - 1, dtype=torch.int64)
    out[:, 0] = last
    dist = torch.full((B, N), float("inf"))
    for j in range(1, npoint):
        d = ((points - points[rows, last][:, None, :]) ** 2).sum(-1)
        dist = torch.minimum(dist, d)
        last = torch.argmax(dist, dim=1)
        out[:, j] = last
    return out


def _fps_euclidean_sqrt_ties(points, idx):
    # Distances with a square root in float16: near-equal distances collapse into ties.
    B, N, _ = points.shape
    npoint = idx.shape[1]
    out = torch.zeros(B, npoint, dtype=torch.int64)
    rows = torch.arange(B)
    last = torch.zeros(B, dtype=torch.int64)
    dist = torch.full((B, N), float("inf"), dtype=torch.float16)
    for j in range(1, npoint):
        d = ((points - points[rows, last][:, None, :]) ** 2).sum(-1).sqrt().half()
        dist = torch.minimum(dist, d)
        last = torch.argmax(dist.float(), dim=1)
        out[:, j] = last
    return out


# --- hip2hip/layernorm_backward -----------------------------------------------------------


def _lnb_parts(dy, x, weight, mean, rstd):
    dyf, xf, wf = dy.float(), x.float(), weight.float()
    mu, rs = mean.float()[:, None], rstd.float()[:, None]
    return dyf, xf, wf, mu, rs, (xf - mu) * rs


def _lnb_dx_without_weight(dy, x, weight, mean, rstd):
    dyf, xf, wf, mu, rs, xhat = _lnb_parts(dy, x, weight, mean, rstd)
    g = dyf
    dx = rs * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
    return (dx.to(x.dtype), (dyf * xhat).sum(0), dyf.sum(0))


def _lnb_dgamma_weighted(dy, x, weight, mean, rstd):
    # dgamma from g = dy * w instead of dy.
    dyf, xf, wf, mu, rs, xhat = _lnb_parts(dy, x, weight, mean, rstd)
    g = dyf * wf
    dx = rs * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))
    return (dx.to(x.dtype), (g * xhat).sum(0), dyf.sum(0))


RAC, SEG, MOE, FPS = ("hip2hip/reshape_and_cache", "hip2hip/segment_sum",
                      "hip2hip/moe_topk_softmax", "hip2hip/farthest_point_sampling")
LNB = "hip2hip/layernorm_backward"

CASES: list[tuple[str, str, Callable[..., Any]]] = [
    (RAC, "padding tokens written to the last slot", declared(RAC, "padding_written")),
    (RAC, "slot split offset-major", declared(RAC, "offset_major")),
    (RAC, "values not written", _cache_keys_only),
    (RAC, "slot mapping ignored", _cache_token_order),
    (SEG, "mean instead of sum", declared(SEG, "segment_mean")),
    (SEG, "end row included", declared(SEG, "inclusive_end")),
    (SEG, "first row of each segment skipped", _segment_first_row_skipped),
    (SEG, "accumulated in the input dtype", _segment_sum_in_input_dtype),
    (MOE, "not renormalized", declared(MOE, "not_renormalized")),
    (MOE, "ascending order", declared(MOE, "ascending")),
    (MOE, "experts in index order", declared(MOE, "index_order")),
    (MOE, "smallest probabilities", _moe_smallest),
    (MOE, "sigmoid gate instead of softmax", _moe_sigmoid),
    (FPS, "distance to the last pick only", declared(FPS, "last_pick_only")),
    (FPS, "largest index on ties", declared(FPS, "last_index_on_ties")),
    (FPS, "started at the last point", _fps_start_last),
    (FPS, "float16 Euclidean distances", _fps_euclidean_sqrt_ties),
    (LNB, "dx without the variance term", declared(LNB, "dx_without_variance_term")),
    (LNB, "dgamma from x instead of xhat", declared(LNB, "dgamma_from_x")),
    (LNB, "dx without the weight", _lnb_dx_without_weight),
    (LNB, "dgamma from dy * w", _lnb_dgamma_weighted),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
