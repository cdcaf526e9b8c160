"""Tolerances and inputs of the third batch of hip2hip tasks reject the shortcuts a kernel
could take.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU
configurations and inputs): the first batch entry's vector for every matrix, the unbiased
variance, a descending or unstable order, the wrong rounding. It must fail the task's
comparison on at least one configuration, while the reference (computed in float32, rounded
to the native output dtypes) passes on all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import TASKS, case_ids, check_case, declared, task_module

# --- plausible wrong implementations, in plain PyTorch ------------------------------------


def _gemv_first_vector(w, x):
    # x[0] used against every batch entry's matrix.
    return torch.matmul(w.float(), x.float()[0]).to(w.dtype)


def _gemv_half_accumulation(w, x):
    # The products summed in the inputs' 16-bit dtype, one rounding per term.
    acc = torch.zeros(w.shape[:2], dtype=w.dtype)
    for k in range(w.shape[2]):
        acc = acc + w[:, :, k] * x[:, k].unsqueeze(1)
    return acc


def _group_norm_unbiased(x, weight, bias):
    N, C = x.shape[:2]
    xg = x.float().reshape(N, 32, -1)
    mean = xg.mean(-1, keepdim=True)
    var = xg.var(-1, unbiased=True, keepdim=True)
    y = ((xg - mean) * torch.rsqrt(var + 1e-5)).reshape(x.shape)
    return (y * weight.float()[:, None, None] + bias.float()[:, None, None]).to(x.dtype)


def _group_norm_affine_per_group(x, weight, bias):
    # weight and bias indexed by group instead of by channel.
    N, C = x.shape[:2]
    y = F.group_norm(x.float(), 32, eps=1e-5)
    g = torch.arange(C) // (C // 32)
    return (y * weight.float()[g][:, None, None] + bias.float()[g][:, None, None]).to(x.dtype)


def _sort_descending(x):
    values, indices = torch.sort(x, dim=-1, descending=True)
    return values, indices


def _sort_indices_int32_wrapped(x):
    # Positions counted from the end of the row.
    values, indices = torch.sort(x, dim=-1)
    return values, x.shape[-1] - 1 - indices


def _sort_values_only(x):
    # Values sorted, positions left as 0..N-1.
    values, _ = torch.sort(x, dim=-1)
    return values, torch.arange(x.shape[-1]).expand_as(x).contiguous()


def _max_pool_zero_padding(x):
    return F.max_pool2d(F.pad(x, (1, 1, 1, 1)), kernel_size=3, stride=2)


def _max_pool_no_padding_windows(x):
    # Windows anchored at (2i, 2j) instead of centred there: a shift by one row and column.
    padded = F.pad(x, (0, 2, 0, 2), value=float("-inf"))
    return F.max_pool2d(padded, kernel_size=3, stride=2)[..., : (x.shape[2] - 1) // 2 + 1,
                                                          : (x.shape[3] - 1) // 2 + 1]


def _index_add_last_write_wins(base, index, src):
    # A plain store instead of an accumulation: repeated rows keep one source row.
    out = base.clone()
    out[index] = base[index] + src
    return out


def _index_add_without_base(base, index, src):
    return torch.zeros_like(base).index_add_(0, index, src)


def _rmsnorm_quant_rsqrt(x, weight):
    # The reciprocal square root and a reciprocal of the scale (the fast-math shortcuts).
    xf, wf = x.float(), weight.float()
    r = torch.rsqrt((xf * xf).mean(-1) + 1e-6)
    y = (xf * r[:, None]) * wf[None, :]
    scale = y.abs().amax(-1) / 127.0
    q = torch.round(y * (1.0 / scale)[:, None]).clamp_(-127, 127).to(torch.int8)
    return q, scale


def _rmsnorm_quant_no_weight(x, weight):
    xf = x.double()
    r = 1.0 / torch.sqrt((xf * xf).mean(-1) + 1e-6)
    y = (xf * r[:, None]).float()
    scale = y.abs().amax(-1) / 127.0
    return torch.round(y / scale[:, None]).clamp_(-127, 127).to(torch.int8), scale


def _conv_flipped(x, weight, bias):
    return F.conv2d(x.float(), weight.float().flip(2, 3), bias.float(), padding=1).to(x.dtype)


def _paged_no_scale(q, k_cache, v_cache, block_tables, context_lens):
    # Scores not divided by sqrt(D).
    ref = task_module(TASKS["hip2hip/paged_attention_decode"], "reference.py")
    return ref.reference(q.float() * q.shape[-1] ** 0.5, k_cache.float(), v_cache.float(),
                         block_tables, context_lens).to(q.dtype)


def _paged_contiguous_blocks(q, k_cache, v_cache, block_tables, context_lens):
    # The block table ignored: sequence b assumed to own blocks b * MB .. b * MB + MB - 1.
    ref = task_module(TASKS["hip2hip/paged_attention_decode"], "reference.py")
    B, MB = block_tables.shape
    ident = torch.arange(B * MB, dtype=torch.int32).view(B, MB)
    return ref.reference(q.float(), k_cache.float(), v_cache.float(), ident,
                         context_lens).to(q.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("batched_gemv", "first vector for every matrix", _gemv_first_vector),
    ("batched_gemv", "16-bit accumulation", _gemv_half_accumulation),
    ("group_norm", "unbiased variance", _group_norm_unbiased),
    ("group_norm", "affine indexed by group", _group_norm_affine_per_group),
    ("group_norm", "per-channel statistics (declared)",
     declared("hip2hip/group_norm", "per_channel_statistics")),
    ("group_norm", "mean not subtracted (declared)",
     declared("hip2hip/group_norm", "mean_not_subtracted")),
    ("sort_rows", "descending order", _sort_descending),
    ("sort_rows", "positions counted from the end", _sort_indices_int32_wrapped),
    ("sort_rows", "positions not permuted", _sort_values_only),
    ("max_pool2d", "zero padding", _max_pool_zero_padding),
    ("max_pool2d", "windows anchored, not centred", _max_pool_no_padding_windows),
    ("index_add_rows", "last write wins", _index_add_last_write_wins),
    ("index_add_rows", "base not added", _index_add_without_base),
    ("rmsnorm_quant_int8", "rsqrt and reciprocal shortcuts", _rmsnorm_quant_rsqrt),
    ("rmsnorm_quant_int8", "weight not applied", _rmsnorm_quant_no_weight),
    ("conv2d_3x3", "kernel flipped", _conv_flipped),
    ("conv2d_3x3", "bias dropped (declared)", declared("hip2hip/conv2d_3x3", "no_bias")),
    ("paged_attention_decode", "no 1/sqrt(D) scale", _paged_no_scale),
    ("paged_attention_decode", "block table ignored", _paged_contiguous_blocks),
    ("paged_attention_decode", "stale slots attended (declared)",
     declared("hip2hip/paged_attention_decode", "whole_last_block")),
    ("paged_attention_decode", "kv heads interleaved (declared)",
     declared("hip2hip/paged_attention_decode", "interleaved_heads")),
    ("rmsnorm_quant_int8", "truncation (declared)",
     declared("hip2hip/rmsnorm_quant_int8", "truncated")),
]


@pytest.mark.parametrize(("name", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(name, what, variant):
    check_case(f"hip2hip/{name}", what, variant)
