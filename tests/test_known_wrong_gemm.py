"""Tolerances and inputs of the GEMM-family triton2triton tasks reject plausible wrong kernels.

Each case is a wrong implementation of a task in plain PyTorch (the other GELU, a missing
scale, a misread int4 packing, a mask left out), run on the task's CPU configurations and
inputs. It must fail the task's comparison on at least one configuration, while the reference
itself, computed in float32 and rounded to the native output dtype, passes on all of them.
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


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _gelu_erf(x, w, b):
    return torch.nn.functional.gelu(x.float() @ w.float().T + b.float()).to(x.dtype)


def _residual_no_bias(x, w, bias, residual):
    return (x.float() @ w.float().T + residual.float()).to(x.dtype)


def _lora_no_scale(x, w, a, b, scale):
    dtype = x.dtype
    x, w, a, b = (t.float() for t in (x, w, a, b))
    return (x @ w.T + (x @ a.T) @ b.T).to(dtype)


def _w4_codes(w_packed: torch.Tensor, high_first: bool = False) -> torch.Tensor:
    low, high = (w_packed & 0xF).float(), (w_packed >> 4).float()
    pair = (high, low) if high_first else (low, high)
    return torch.stack(pair, dim=-1).flatten(1)


def _w4_nibbles_swapped(x, w_packed, scales):
    w = (_w4_codes(w_packed, high_first=True) - 8) * scales.float().repeat_interleave(128, 1)
    return (x.float() @ w.T).to(x.dtype)


def _w4_signed_nibbles(x, w_packed, scales):
    # Codes read as two's-complement int4 (q >= 8 -> q - 16) instead of offset by 8.
    codes = _w4_codes(w_packed)
    codes = torch.where(codes >= 8, codes - 16, codes)
    return (x.float() @ (codes * scales.float().repeat_interleave(128, 1)).T).to(x.dtype)


def _w4_per_row_scale(x, w_packed, scales):
    w = (_w4_codes(w_packed) - 8) * scales.float()[:, :1]
    return (x.float() @ w.T).to(x.dtype)


def _qk_norm_over_all_heads(q, k, q_weight, k_weight, cos_sin, positions):
    half = q.shape[-1] // 2
    cs = cos_sin[positions]
    cos, sin = cs[:, None, :half], cs[:, None, half:]

    def run(x, w):
        x = x.float()
        y = x * torch.rsqrt(x.pow(2).mean(dim=(-2, -1), keepdim=True) + 1e-6) * w.float()
        y1, y2 = y[..., :half], y[..., half:]
        return torch.cat([y1 * cos - y2 * sin, y2 * cos + y1 * sin], -1).to(q.dtype)
    return (run(q, q_weight), run(k, k_weight))


def _alibi_slopes_reversed(q, k, v, slopes):
    ref = task_module(TASKS["triton2triton/attention_alibi"], "reference.py")
    return ref.alibi_attention(q.float(), k.float(), v.float(), slopes.flip(0)).to(q.dtype)


def _cross_lengths_ignored(q, k, v, kv_lens):
    ref = task_module(TASKS["triton2triton/cross_attention"], "reference.py")
    full = torch.full_like(kv_lens, k.shape[2])
    return ref.attend(q.float(), k.float(), v.float(), full).to(q.dtype)


def _dv_not_causal(q, k, do, lse):
    p = torch.softmax(q.float() @ k.float().transpose(-2, -1) * q.shape[-1] ** -0.5, -1)
    return (p.transpose(-2, -1) @ do.float()).to(k.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/gemm_gelu", "erf GELU instead of the tanh one", _gelu_erf),
    ("triton2triton/gemm_residual_add", "bias left out", _residual_no_bias),
    ("triton2triton/lora_linear", "LoRA scale left out", _lora_no_scale),
    ("triton2triton/w4a16_gemm", "high nibble read first", _w4_nibbles_swapped),
    ("triton2triton/w4a16_gemm", "nibbles read as signed int4", _w4_signed_nibbles),
    ("triton2triton/w4a16_gemm", "one scale per row", _w4_per_row_scale),
    ("triton2triton/qk_norm_rope", "RMS over all heads of a token", _qk_norm_over_all_heads),
    ("triton2triton/attention_alibi", "slopes in reverse head order", _alibi_slopes_reversed),
    ("triton2triton/cross_attention", "padding keys attended", _cross_lengths_ignored),
    ("triton2triton/attention_backward_dv", "causal mask left out", _dv_not_causal),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
