"""Tolerances and inputs of the torch2triton tasks reject the shortcuts a kernel could take,
and accept the eager PyTorch operator each task is timed against.

Each case is a plausible wrong implementation (plain PyTorch, on the task's CPU configurations
and inputs): the residual returned before the add, a padding mask ignored, a table of the first
sequence used for all, the wrong rounding. It must fail the task's comparison on at least one
configuration, while the reference (computed in float32, rounded to the native output dtypes)
and the task's eager baseline (baseline.py, in the native dtypes) pass on all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import (
    TASKS,
    case_ids,
    check_case,
    task_module,
    verdicts,
)

NAMES = ["rmsnorm_residual", "swiglu", "softmax_temperature", "layernorm_gelu", "rope_neox",
         "cross_entropy_per_token", "bias_gelu_dropout_eval", "masked_mean_pool",
         "group_topk_softmax"]


def _cast(args: tuple, dtype: torch.dtype) -> tuple:
    return tuple(a.to(dtype) if isinstance(a, torch.Tensor) and a.is_floating_point() else a
                 for a in args)


# --- plausible wrong implementations, in plain PyTorch ------------------------------------

def _rmsnorm_residual_not_added(x, residual, weight):
    h = x.float() + residual.float()
    y = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * weight.float()
    return (y.to(x.dtype), residual)


def _rmsnorm_eps_outside(x, residual, weight):
    h = x.float() + residual.float()
    y = h / (h.pow(2).mean(-1, keepdim=True).sqrt() + 1e-6) * weight.float()
    return (y.to(x.dtype), h.to(x.dtype))


def _swiglu_gelu(gate_up):
    gate, up = gate_up.float().chunk(2, dim=-1)
    return (F.gelu(gate) * up).to(gate_up.dtype)


def _softmax_temperature_on_probs(logits, temperature):
    # The temperature applied to the probabilities (p ** (1 / T)) without renormalizing.
    return (torch.softmax(logits.float(), -1) ** (1.0 / temperature)).to(logits.dtype)


def _layernorm_gelu_eps_outside(x, weight, bias):
    xf = x.float()
    mean = xf.mean(-1, keepdim=True)
    std = (xf - mean).pow(2).mean(-1, keepdim=True).sqrt()
    return F.gelu((xf - mean) / (std + 1e-5) * weight.float() + bias.float()).to(x.dtype)


def _layernorm_gelu_no_bias(x, weight, bias):
    y = F.layer_norm(x.float(), (x.shape[-1],), weight.float(), None, eps=1e-5)
    return F.gelu(y).to(x.dtype)


def _rope_first_sequence_tables(q, k, cos, sin):
    # The tables of the first sequence used for every sequence of the batch.
    c, s = cos.float()[:1].unsqueeze(2), sin.float()[:1].unsqueeze(2)

    def rot(x):
        xf, half = x.float(), x.shape[-1] // 2
        return (xf * c + torch.cat((-xf[..., half:], xf[..., :half]), -1) * s).to(x.dtype)
    return (rot(q), rot(k))


def _ce_label_smoothing(logits, targets):
    return F.cross_entropy(logits.float(), targets, reduction="none", label_smoothing=0.1)


def _ce_ignored_nan_free_mean(logits, targets):
    # Ignored tokens given the row's mean loss over the vocabulary instead of 0.
    lp = torch.log_softmax(logits.float(), -1)
    picked = -lp.gather(1, targets.clamp(min=0)[:, None])[:, 0]
    return torch.where(targets == -100, -lp.mean(-1), picked)


def _bias_gelu_dropout_training(x, bias):
    gen = torch.Generator().manual_seed(0)
    h = F.gelu(x.float() + bias.float())
    keep = torch.rand(h.shape, generator=gen) >= 0.1
    return (h * keep / 0.9).to(x.dtype)


def _bias_gelu_no_bias(x, bias):
    return F.gelu(x.float()).to(x.dtype)


def _mean_pool_count_ignored(hidden, attention_mask):
    # Masked sum divided by S - (padding of a right-padded batch): the plain mean of all rows.
    return hidden.float().mean(1).to(hidden.dtype)


def _mean_pool_padding_summed(hidden, attention_mask):
    m = attention_mask.float().unsqueeze(-1)
    return (hidden.float().sum(1) / m.sum(1).clamp(min=1e-9)).to(hidden.dtype)


def _topk_ascending(router_logits, top_k):
    w, ids = torch.topk(torch.softmax(router_logits.float(), -1), top_k, -1)
    w = w / w.sum(-1, keepdim=True)
    return (w.flip(-1).to(router_logits.dtype), ids.flip(-1))


def _topk_weights_unsorted_ids(router_logits, top_k):
    # The right experts, reported in index order instead of by descending weight.
    w, ids = torch.topk(torch.softmax(router_logits.float(), -1), top_k, -1)
    ids, order = ids.sort(-1)
    w = (w / w.sum(-1, keepdim=True)).gather(1, order)
    return (w.to(router_logits.dtype), ids)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("rmsnorm_residual", "the residual returned before the add", _rmsnorm_residual_not_added),
    ("rmsnorm_residual", "eps outside the square root", _rmsnorm_eps_outside),
    ("swiglu", "GELU instead of SiLU", _swiglu_gelu),
    ("softmax_temperature", "temperature applied to the probabilities",
     _softmax_temperature_on_probs),
    ("layernorm_gelu", "eps outside the square root", _layernorm_gelu_eps_outside),
    ("layernorm_gelu", "LayerNorm bias dropped", _layernorm_gelu_no_bias),
    ("rope_neox", "first sequence's tables for every sequence", _rope_first_sequence_tables),
    ("cross_entropy_per_token", "label smoothing 0.1", _ce_label_smoothing),
    ("cross_entropy_per_token", "ignored tokens not zeroed", _ce_ignored_nan_free_mean),
    ("bias_gelu_dropout_eval", "dropout applied as in training", _bias_gelu_dropout_training),
    ("bias_gelu_dropout_eval", "bias not added", _bias_gelu_no_bias),
    ("masked_mean_pool", "mask ignored (plain mean)", _mean_pool_count_ignored),
    ("masked_mean_pool", "padding summed, real tokens counted", _mean_pool_padding_summed),
    ("group_topk_softmax", "experts in ascending order", _topk_ascending),
    ("group_topk_softmax", "experts in index order", _topk_weights_unsorted_ids),
]


@pytest.mark.parametrize("name", NAMES)
def test_eager_baseline_passes(name):
    """The eager operator the task times against is itself within the task's tolerance."""
    task = TASKS[f"torch2triton/{name}"]
    assert task.baseline is not None and task.baseline.file == "baseline.py"
    baseline = getattr(task_module(task, "baseline.py"), task.baseline.function)
    assert all(verdicts(task, baseline)), f"{name}: the eager baseline fails its own task"


@pytest.mark.parametrize(("name", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_variant_fails(name, what, variant):
    check_case(f"torch2triton/{name}", what, variant)
