"""Tolerances and inputs of the triton2triton tasks reject the shortcuts a kernel could take.

Each case is a plausible wrong implementation of a task (in plain PyTorch, on the task's CPU
configurations and inputs): a missing mask, a rule of the description ignored, the other
variant of an operator. It must fail the task's comparison on at least one configuration,
while the reference itself (in the task's native precision) passes. Until `aka tasks check`
generates such variants itself, this is where a task author shows the tolerance is tight
enough for what the description promises.
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


def _f64(args: tuple) -> tuple:
    return tuple(a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _rope_gptj(q, k, cos_sin, positions):
    half = q.shape[-1] // 2
    cs = cos_sin[positions]
    cos, sin = cs[:, None, :half], cs[:, None, half:]

    def rot(x):
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).flatten(-2)
    return (rot(q.float()).to(q.dtype), rot(k.float()).to(k.dtype))


def _attention_not_causal(q, k, v):
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1).float(), v.repeat_interleave(group, 1).float()
    p = torch.softmax(q.float() @ k.transpose(-2, -1) * q.shape[-1] ** -0.5, -1)
    return (p @ v).to(q.dtype)


def _attention_wrong_group(q, k, v):
    # Query head h paired with key/value head h % HKV instead of h // (HQ / HKV).
    reps = q.shape[1] // k.shape[1]
    k, v = k.repeat(1, reps, 1, 1).float(), v.repeat(1, reps, 1, 1).float()
    S = q.shape[2]
    s = q.float() @ k.transpose(-2, -1) * q.shape[-1] ** -0.5
    s = s.masked_fill(~torch.ones(S, S, dtype=torch.bool).tril(), float("-inf"))
    return (torch.softmax(s, -1) @ v).to(q.dtype)


def _paged_ignore_lengths(q, k_cache, v_cache, table, seq_lens):
    lens = torch.full_like(seq_lens, table.shape[1] * k_cache.shape[1])
    ref = task_module(TASKS["triton2triton/paged_decode_attention"], "reference.py").reference
    return ref(q.float(), k_cache.float(), v_cache.float(), table, lens).to(q.dtype)


def _gating_not_renormalized(logits, k):
    w, ids = torch.topk(torch.softmax(logits, -1), k, -1)
    return (w, ids.to(torch.int32))


def _ce_no_smoothing(logits, targets, eps):
    return torch.nn.functional.cross_entropy(logits.float(), targets, reduction="none",
                                             ignore_index=-100)


def _ce_backward_ignores_padding(logits, targets, grad_loss):
    safe = targets.clamp(min=0)
    probs = torch.softmax(logits.float(), -1)
    onehot = torch.nn.functional.one_hot(safe, logits.shape[1]).float()
    return ((probs - onehot) * grad_loss[:, None]).to(logits.dtype)


def _merge_base2(po, plse, so, slse):
    m = torch.maximum(plse, slse)
    wp, ws = torch.exp2(plse - m), torch.exp2(slse - m)
    out = (wp[..., None] * po.float() + ws[..., None] * so.float()) / (wp + ws)[..., None]
    return (out.to(po.dtype), m + torch.log(wp + ws))


def _min_p_no_temperature(logits, temperature, min_p):
    ref = task_module(TASKS["triton2triton/min_p_sampling_probs"], "reference.py").reference
    return ref(logits, torch.ones_like(temperature), min_p)


def _layernorm_bwd_no_mean_term(x, dy, weight, mean, rstd):
    xhat = (x.float() - mean[:, None]) * rstd[:, None]
    g = weight.float() * dy.float()
    dx = (g - g.mean(1, keepdim=True)) * rstd[:, None]
    return (dx.to(x.dtype), (dy.float() * xhat).sum(0).to(x.dtype), dy.float().sum(0).to(x.dtype))


def _swiglu_swapped(x, w_gate, w_up):
    return (torch.nn.functional.silu(x.float() @ w_up.float().T)
            * (x.float() @ w_gate.float().T)).to(x.dtype)


def _w8a8_no_token_scale(xq, x_scale, wq, w_scale, out_dtype):
    return ((xq.double() @ wq.double().T) * w_scale.double()[None, :]).to(out_dtype)


def _conv_not_causal(x, weight, bias):
    W = weight.shape[1]
    y = torch.nn.functional.conv1d(x.float(), weight.float()[:, None, :], bias.float(),
                                   padding=W // 2, groups=weight.shape[0])
    return torch.nn.functional.silu(y[..., : x.shape[-1]]).to(x.dtype)


def _sort_unstable(topk_ids, num_experts):
    ref = task_module(TASKS["triton2triton/moe_align_sort"], "reference.py").reference
    order, offsets = ref(topk_ids, num_experts)
    # Reverse the order inside every expert's segment: right counts, wrong (unstable) order.
    bounds = offsets.tolist()
    pieces = [order[bounds[e]:bounds[e + 1]].flip(0) for e in range(num_experts)]
    return (torch.cat(pieces), offsets)


def _swa_plain_causal(q, k, v, window):
    S = q.shape[2]
    s = q.float() @ k.float().transpose(-2, -1) * q.shape[-1] ** -0.5
    s = s.masked_fill(~torch.ones(S, S, dtype=torch.bool).tril(), float("-inf"))
    return (torch.softmax(s, -1) @ v.float()).to(q.dtype)


def _topk_ascending(logits, k):
    values, indices = torch.topk(logits, k, dim=-1)
    return (values.flip(-1), indices.flip(-1))


def _w8a16_unsigned(x, w_q, scale):
    w = w_q.view(torch.uint8).float() * scale[:, None]
    return (x.float() @ w.T).to(x.dtype)


def _geglu_erf(x):
    n = x.shape[-1] // 2
    return (torch.nn.functional.gelu(x[:, :n].float()) * x[:, n:].float()).to(x.dtype)


def _segment_mean_padded_count(x, cu_seqlens):
    # Divides by the length rounded up to a block of 16 rows.
    bounds = cu_seqlens.tolist()
    rows = [x[bounds[b]:bounds[b + 1]].float().sum(0) / (-(-(bounds[b + 1] - bounds[b]) // 16) * 16)
            for b in range(len(bounds) - 1)]
    return torch.stack(rows).to(x.dtype)


def _flce_rounded_logits(x, w, targets):
    logits = (x.float() @ w.float().T).to(x.dtype).float()
    return torch.logsumexp(logits, -1) - logits.gather(1, targets[:, None])[:, 0]


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/rope_qk", "GPT-J interleaved pairs instead of rotate-half", _rope_gptj),
    ("triton2triton/attention_causal_gqa", "no causal mask", _attention_not_causal),
    ("triton2triton/attention_causal_gqa", "head h uses kv head h % HKV", _attention_wrong_group),
    ("triton2triton/paged_decode_attention", "slots past seq_lens read", _paged_ignore_lengths),
    ("triton2triton/moe_topk_gating", "top-k weights not renormalized", _gating_not_renormalized),
    ("triton2triton/cross_entropy_smoothed", "label smoothing left out", _ce_no_smoothing),
    ("triton2triton/cross_entropy_backward", "ignore_index rows not zeroed",
     _ce_backward_ignores_padding),
    ("triton2triton/merge_attn_states", "lse read as base 2", _merge_base2),
    ("triton2triton/min_p_sampling_probs", "temperature left out", _min_p_no_temperature),
    ("triton2triton/layernorm_backward", "xhat * mean(g * xhat) term left out",
     _layernorm_bwd_no_mean_term),
    ("triton2triton/swiglu_mlp", "SiLU applied to the up projection", _swiglu_swapped),
    ("triton2triton/w8a8_gemm", "per-token scale left out", _w8a8_no_token_scale),
    ("triton2triton/causal_conv1d", "centred instead of causal padding", _conv_not_causal),
    ("triton2triton/moe_align_sort", "unstable order within an expert", _sort_unstable),
    ("triton2triton/attention_sliding_window", "plain causal, no window", _swa_plain_causal),
    ("triton2triton/topk_rows", "ascending instead of descending order", _topk_ascending),
    ("triton2triton/w8a16_gemm", "weights read as uint8", _w8a16_unsigned),
    ("triton2triton/gelu_tanh_and_mul", "erf GELU instead of the tanh one", _geglu_erf),
    ("triton2triton/segment_mean", "divided by the block-padded length",
     _segment_mean_padded_count),
    ("triton2triton/fused_linear_cross_entropy", "logits rounded to the input dtype",
     _flce_rounded_logits),
]


def _f32(args: tuple) -> tuple:
    return tuple(a.float() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
