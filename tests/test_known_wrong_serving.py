"""Tolerances and inputs of the LLM-serving triton2triton tasks reject plausible wrong kernels.

Each case is a wrong implementation of a task in plain PyTorch (rounding half away from zero, a
repeated token penalized twice, padding slots written, the wrong M-RoPE section split, a chunk
reset off by one, clamping instead of tanh), run on the task's CPU configurations and inputs.
It must fail the task's comparison on at least one configuration, while the reference itself,
computed in float32 and rounded to the native output dtypes, passes on all of them. Cases named
`wrong.py:<fn>` are the variants the task declares for `aka tasks check`; the others are written
here.
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
    declared,
    task_module,
)


def _f64(args: tuple) -> tuple:
    return tuple(a.double() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _f32(args: tuple) -> tuple:
    return tuple(a.float() if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _penalty_twice_for_repeats(logits, history, penalty):
    B, V = logits.shape
    out = logits.float().clone()
    p = penalty.float()
    for b in range(B):
        for v in history[b].tolist():
            if v >= 0:
                x = out[b, v]
                out[b, v] = x / p[b] if x > 0 else x * p[b]
    return out.to(logits.dtype)


def _gumbel_no_temperature(logits, temperature, noise):
    return torch.argmax(logits + noise, dim=1)


def _moe_sum_first_slot_only(expert_out, weights):
    return (expert_out[:, 0].float() * weights[:, :1].float()).to(expert_out.dtype)


def _kv_padding_to_slot_zero(key, value, k_cache, v_cache, slot_mapping):
    # Padding tokens clamped to slot 0 instead of skipped.
    NB, BS, H, D = k_cache.shape
    k_out = k_cache.clone().view(NB * BS, H, D)
    v_out = v_cache.clone().view(NB * BS, H, D)
    s = slot_mapping.clamp(min=0)
    k_out[s] = key
    v_out[s] = value
    return (k_out.view(NB, BS, H, D), v_out.view(NB, BS, H, D))


def _mrope_gptj_pairs(q, k, cos_sin, positions):
    ref = task_module(TASKS["triton2triton/mrope"], "reference.py")
    D = q.shape[-1]
    half = D // 2
    T = q.shape[0]
    section_of = torch.cat([torch.full((s,), i, dtype=torch.int64)
                            for i, s in enumerate(ref.sections(D))])
    pos = positions[section_of[None, :].expand(T, half), torch.arange(T)[:, None]]
    idx = torch.arange(half)[None, :]
    cos = cos_sin[pos, idx][:, None, :]
    sin = cos_sin[pos, idx + half][:, None, :]

    def rot(x):
        x1, x2 = x[..., 0::2].float(), x[..., 1::2].float()
        return torch.stack([x1 * cos - x2 * sin, x2 * cos + x1 * sin], -1).flatten(-2).to(x.dtype)
    return (rot(q), rot(k))


def _cumsum_chunk_32(g):
    B, H, T = g.shape
    n = -(-T // 32)
    padded = torch.nn.functional.pad(g, (0, n * 32 - T))
    return padded.view(B, H, n, 32).cumsum(-1).view(B, H, n * 32)[..., :T].contiguous()


def _softcap_no_temperature(logits, temperature, cap):
    return (cap * torch.tanh(logits.float() / cap)).to(logits.dtype)


def _top_k_keeps_k_plus_one(probs, k):
    vals = probs.sort(dim=1, descending=True).values
    kth = vals.gather(1, k.long().clamp(max=probs.shape[1] - 1)[:, None])
    kept = torch.where(probs >= kth, probs, torch.zeros_like(probs))
    return kept / kept.sum(dim=1, keepdim=True)


def _penalties_presence_only(logits, counts, frequency, presence):
    out = logits.float() - presence.float()[:, None] * (counts > 0)
    return out.to(logits.dtype)


def _unpermute_unweighted(y, dest, weights):
    T, K = dest.shape
    return y[dest.flatten().long()].view(T, K, -1).float().sum(1).to(y.dtype)


RP = "triton2triton/repetition_penalty"
GM = "triton2triton/gumbel_max_sample"
SR = "triton2triton/moe_sum_reduce"
PM = "triton2triton/moe_permute"
UP = "triton2triton/moe_unpermute"
KV = "triton2triton/kv_cache_write"
MR = "triton2triton/mrope"
CC = "triton2triton/chunked_cumsum_decay"
SC = "triton2triton/softcap_logits"
TK = "triton2triton/top_k_renorm"
FP = "triton2triton/apply_penalties_freq_presence"

CASES: list[tuple[str, str, Callable[..., Any]]] = [
    (RP, "a repeated token penalized once per occurrence", _penalty_twice_for_repeats),
    (RP, "wrong.py:padding_as_last_id", declared(RP, "padding_as_last_id")),
    (RP, "wrong.py:always_divide", declared(RP, "always_divide")),
    (GM, "temperature left out", _gumbel_no_temperature),
    (GM, "wrong.py:noise_scaled_too", declared(GM, "noise_scaled_too")),
    (SR, "only the first expert slot", _moe_sum_first_slot_only),
    (SR, "wrong.py:unweighted", declared(SR, "unweighted")),
    (PM, "wrong.py:gather_instead_of_scatter", declared(PM, "gather_instead_of_scatter")),
    (UP, "router weights left out", _unpermute_unweighted),
    (UP, "wrong.py:not_unpermuted", declared(UP, "not_unpermuted")),
    (KV, "padding tokens written to slot 0", _kv_padding_to_slot_zero),
    (KV, "wrong.py:padding_written", declared(KV, "padding_written")),
    (MR, "GPT-J interleaved pairs instead of rotate-half", _mrope_gptj_pairs),
    (MR, "wrong.py:sections_reversed", declared(MR, "sections_reversed")),
    (MR, "wrong.py:sections_interleaved", declared(MR, "sections_interleaved")),
    (CC, "chunks of 32 instead of 64", _cumsum_chunk_32),
    (CC, "wrong.py:reset_off_by_one", declared(CC, "reset_off_by_one")),
    (CC, "wrong.py:exclusive", declared(CC, "exclusive")),
    (SC, "wrong.py:clamp_instead_of_tanh", declared(SC, "clamp_instead_of_tanh")),
    (SC, "temperature left out", _softcap_no_temperature),
    (TK, "keeps k + 1 tokens", _top_k_keeps_k_plus_one),
    (TK, "wrong.py:not_renormalized", declared(TK, "not_renormalized")),
    (FP, "frequency penalty left out", _penalties_presence_only),
    (FP, "wrong.py:presence_everywhere", declared(FP, "presence_everywhere")),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
