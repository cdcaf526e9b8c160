"""Tolerances and inputs of the normalization and fused elementwise/optimizer tasks reject the
shortcuts a kernel could take.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs): eps in the wrong place, the unbiased variance, a missing residual or bias
correction, weight decay applied the L2 way. It must fail the task's comparison on at least one
configuration, while the reference itself (computed in float32, rounded to the native output
dtypes) passes on all of them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import (
    case_ids,
    check_case,
)


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


def _rmsnorm_eps_outside(x, w):
    xf = x.float()
    return (xf / (xf.pow(2).mean(-1, keepdim=True).sqrt() + 1e-6) * w.float()).to(x.dtype)


def _rmsnorm_padded_mean(x, w):
    xf, n = x.float(), x.shape[-1]
    block = 1 << (n - 1).bit_length()
    return (xf * torch.rsqrt(xf.pow(2).sum(-1, keepdim=True) / block + 1e-6)
            * w.float()).to(x.dtype)


def _rmsnorm_bwd_no_projection(x, w, dy):
    xf, wf, g = x.float(), w.float(), dy.float()
    rstd = torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + 1e-6)
    return ((rstd * wf * g).to(x.dtype), (g * xf * rstd).sum(0).to(w.dtype))


def _group_norm_per_channel(x, w, b, groups):
    return torch.nn.functional.group_norm(x.float(), x.shape[1], w.float(), b.float(),
                                          eps=1e-5).to(x.dtype)


def _group_norm_unbiased(x, w, b, groups):
    B, C, HW = x.shape
    xg = x.float().reshape(B, groups, -1)
    y = (xg - xg.mean(-1, keepdim=True)) / (xg.var(-1, keepdim=True, unbiased=True)
                                            + 1e-5).sqrt()
    return (y.reshape(B, C, HW) * w.float()[None, :, None] + b.float()[None, :, None]
            ).to(x.dtype)


def _add_ln_without_residual(x, residual, w, b):
    out = torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), w.float(), b.float(),
                                         eps=1e-5)
    return (out.to(x.dtype), (x.float() + residual.float()).to(x.dtype))


def _log_softmax_base2(x):
    xf = x.float()
    m = xf.amax(-1, keepdim=True)
    return (xf - m - torch.log2(torch.exp(xf - m).sum(-1, keepdim=True))).to(x.dtype)


def _logsumexp_first_chunk_only(x):
    # A split-row kernel whose merge keeps only the first of its 1024-wide chunks.
    return torch.logsumexp(x[:, :1024].float(), -1)


def _silu_mul_swapped(x):
    n = x.shape[-1] // 2
    return (torch.nn.functional.silu(x[:, n:].float()) * x[:, :n].float()).to(x.dtype)


def _adamw(param, grad, m, v, lr, beta1, beta2, eps, wd, step, l2=False, correct=True):
    g = grad + wd * param if l2 else grad
    p = param if l2 else param * (1.0 - lr * wd)
    m = beta1 * m + (1.0 - beta1) * g
    v = beta2 * v + (1.0 - beta2) * g * g
    b1 = 1.0 - beta1 ** step if correct else 1.0
    b2 = 1.0 - beta2 ** step if correct else 1.0
    return (p - lr / b1 * m / (v.sqrt() / math.sqrt(b2) + eps), m, v)


def _adamw_l2(*args):
    return _adamw(*args, l2=True)


def _adamw_no_bias_correction(*args):
    return _adamw(*args, correct=False)


def _l2norm_eps_added(x):
    xf = x.float()
    return (xf / (xf.norm(dim=-1, keepdim=True) + 1e-12)).to(x.dtype)


def _l2norm_no_clamp(x):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).sum(-1, keepdim=True))).to(x.dtype)


def _kl_reversed(logp, logq):
    lp, lq = logp.float(), logq.float()
    return (torch.exp(lq) * (lq - lp)).sum(-1)


def _batchnorm_eps_outside(x, mean, var, w, b):
    scale = w / (var.sqrt() + 1e-5)
    return ((x.float() - mean[None, :, None]) * scale[None, :, None]
            + b[None, :, None]).to(x.dtype)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/rmsnorm", "eps outside the square root", _rmsnorm_eps_outside),
    ("triton2triton/rmsnorm", "mean over the padded block width", _rmsnorm_padded_mean),
    ("triton2triton/rmsnorm_backward", "rstd treated as a constant in dx",
     _rmsnorm_bwd_no_projection),
    ("triton2triton/group_norm", "statistics per channel (instance norm)",
     _group_norm_per_channel),
    ("triton2triton/group_norm", "unbiased variance", _group_norm_unbiased),
    ("triton2triton/add_layernorm", "residual not added before the norm",
     _add_ln_without_residual),
    ("triton2triton/log_softmax", "log-sum-exp taken in base 2", _log_softmax_base2),
    ("triton2triton/logsumexp_rows", "only the first chunk merged", _logsumexp_first_chunk_only),
    ("triton2triton/silu_and_mul", "SiLU applied to the up half", _silu_mul_swapped),
    ("triton2triton/adamw_step", "weight decay added to the gradient (L2)", _adamw_l2),
    ("triton2triton/adamw_step", "bias correction missing", _adamw_no_bias_correction),
    ("triton2triton/l2norm_rows", "eps added to the norm", _l2norm_eps_added),
    ("triton2triton/l2norm_rows", "norm not clamped", _l2norm_no_clamp),
    ("triton2triton/kl_div_rows", "KL(q || p) instead of KL(p || q)", _kl_reversed),
    ("triton2triton/batchnorm_inference", "eps outside the square root", _batchnorm_eps_outside),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
