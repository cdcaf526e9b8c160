"""Tolerances and inputs of the state-space and decode-step triton2triton tasks reject plausible
wrong kernels.

Each case is a wrong implementation of a task in plain PyTorch (the gate of a gated RMSNorm
applied after the norm, a conv state rolled the wrong way, a selective-state output read from
the old state, a delta-rule step in the wrong order), run on the task's CPU configurations and
inputs. It must fail the task's comparison on at least one configuration, while the reference
itself, computed in float32 and rounded to the native output dtypes, passes on all of them.
Cases named `wrong.py:<fn>` are the variants the task declares for `aka tasks check`; the
others are written here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import case_ids, check_case, declared


def _gated_rmsnorm_eps_1e6(x, z, weight):
    g = x.float() * torch.nn.functional.silu(z.float())
    out = g * torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + 1e-6) * weight.float()
    return out.to(x.dtype)


def _conv_update_no_bias(x, conv_state, weight, bias):
    u = torch.cat([conv_state, x[..., None]], dim=-1).float()
    out = torch.nn.functional.silu((u * weight.float()[None]).sum(-1))
    return (out.to(x.dtype), u[..., 1:].to(x.dtype))


def _ssm_no_softplus(x, dt, dt_bias, A, Bm, Cm, Dskip, state):
    delta = (dt.float() + dt_bias[None]).clamp(min=0)
    h = (torch.exp(delta[..., None] * A[None]) * state
         + delta[..., None] * Bm[:, None, :].float() * x[..., None].float())
    y = (h * Cm[:, None, :].float()).sum(-1) + Dskip[None] * x.float()
    return (y.to(x.dtype), h)


def _gdr_no_decay(q, k, v, alpha, beta, S):
    qf, kf, vf = q.float(), k.float(), v.float()
    u = vf - torch.einsum("bhij,bhi->bhj", S, kf)
    S = S + beta[..., None, None] * kf[..., :, None] * u[..., None, :]
    o = torch.einsum("bhij,bhi->bhj", S, qf) * q.shape[-1] ** -0.5
    return (o.to(q.dtype), S)


def _linear_attention_chunk_reset(q, k, v):
    # The state reset at every 16-token chunk (the inter-chunk term forgotten).
    T = q.shape[2]
    idx = torch.arange(T)
    keep = (idx[:, None] >= idx[None, :]) & (idx[:, None] // 16 == idx[None, :] // 16)
    scores = (q.float() @ k.float().transpose(-2, -1)).masked_fill(~keep, 0.0)
    return ((scores @ v.float()) * q.shape[-1] ** -0.5).to(q.dtype)


def _rope_bwd_sin_sign_second_half(dy, cos_sin, positions):
    half = dy.shape[-1] // 2
    cs = cos_sin[positions]
    c, s = cs[:, None, :half], cs[:, None, half:]
    dy1, dy2 = dy[..., :half].float(), dy[..., half:].float()
    return torch.cat([dy1 * c + dy2 * s, dy2 * c + dy1 * s], dim=-1).to(dy.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/gated_rmsnorm", "wrong.py:gate_after_norm",
     declared("triton2triton/gated_rmsnorm", "gate_after_norm")),
    ("triton2triton/gated_rmsnorm", "wrong.py:no_eps",
     declared("triton2triton/gated_rmsnorm", "no_eps")),
    ("triton2triton/gated_rmsnorm", "wrong.py:sigmoid_gate",
     declared("triton2triton/gated_rmsnorm", "sigmoid_gate")),
    ("triton2triton/gated_rmsnorm", "eps 1e-6 instead of 1e-5", _gated_rmsnorm_eps_1e6),
    ("triton2triton/causal_conv1d_update", "wrong.py:taps_reversed",
     declared("triton2triton/causal_conv1d_update", "taps_reversed")),
    ("triton2triton/causal_conv1d_update", "wrong.py:state_not_rolled",
     declared("triton2triton/causal_conv1d_update", "state_not_rolled")),
    ("triton2triton/causal_conv1d_update", "wrong.py:x_prepended",
     declared("triton2triton/causal_conv1d_update", "x_prepended")),
    ("triton2triton/causal_conv1d_update", "bias left out", _conv_update_no_bias),
    ("triton2triton/ssm_state_update", "wrong.py:y_from_old_state",
     declared("triton2triton/ssm_state_update", "y_from_old_state")),
    ("triton2triton/ssm_state_update", "wrong.py:bias_after_softplus",
     declared("triton2triton/ssm_state_update", "bias_after_softplus")),
    ("triton2triton/ssm_state_update", "wrong.py:no_skip",
     declared("triton2triton/ssm_state_update", "no_skip")),
    ("triton2triton/ssm_state_update", "relu instead of softplus", _ssm_no_softplus),
    ("triton2triton/gated_delta_rule_step", "wrong.py:delta_before_decay",
     declared("triton2triton/gated_delta_rule_step", "delta_before_decay")),
    ("triton2triton/gated_delta_rule_step", "wrong.py:output_before_update",
     declared("triton2triton/gated_delta_rule_step", "output_before_update")),
    ("triton2triton/gated_delta_rule_step", "wrong.py:no_output_scale",
     declared("triton2triton/gated_delta_rule_step", "no_output_scale")),
    ("triton2triton/gated_delta_rule_step", "decay left out", _gdr_no_decay),
    ("triton2triton/linear_attention_chunk", "wrong.py:strictly_causal",
     declared("triton2triton/linear_attention_chunk", "strictly_causal")),
    ("triton2triton/linear_attention_chunk", "wrong.py:not_causal",
     declared("triton2triton/linear_attention_chunk", "not_causal")),
    ("triton2triton/linear_attention_chunk", "wrong.py:no_scale",
     declared("triton2triton/linear_attention_chunk", "no_scale")),
    ("triton2triton/linear_attention_chunk", "state reset every chunk",
     _linear_attention_chunk_reset),
    ("triton2triton/rope_backward", "wrong.py:forward_rotation",
     declared("triton2triton/rope_backward", "forward_rotation")),
    ("triton2triton/rope_backward", "wrong.py:gptj_pairs",
     declared("triton2triton/rope_backward", "gptj_pairs")),
    ("triton2triton/rope_backward", "sign of sin wrong in the second half",
     _rope_bwd_sin_sign_second_half),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
