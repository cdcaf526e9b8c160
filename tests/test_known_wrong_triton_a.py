"""Tolerances and inputs of the triton2triton tasks of family A (attention variants, distance and
contrastive GEMMs, sparse products, detection and resampling ops, an optimizer step) reject the
shortcuts a kernel could take.

Each case is a plausible wrong implementation of a task (the task's own wrong.py variants and a
few more written here in plain PyTorch, on the task's CPU configurations and inputs): it must
fail the task's comparison on at least one configuration, while the reference itself (computed
in float32 and rounded to the native output dtypes) passes on every one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from known_wrong import case_ids, check_case, declared, in_float32

T = "triton2triton/"

# (task id, wrong.py function, what it gets wrong)
DECLARED: list[tuple[str, str, str]] = [
    (T + "lion_step", "momentum_first", "sign of the updated momentum, no interpolation"),
    (T + "lion_step", "no_weight_decay", "weight decay dropped"),
    (T + "lion_step", "unsigned_update", "the interpolation itself instead of its sign"),
    (T + "adaln_modulate", "scale_without_one", "x * scale instead of x * (1 + scale)"),
    (T + "adaln_modulate", "shift_scale_swapped", "shift and scale swapped"),
    (T + "cdist_pairwise", "squared", "squared distances"),
    (T + "cdist_pairwise", "manhattan", "L1 instead of L2 distances"),
    (T + "kmeans_assign", "max_inner_product", "largest inner product instead of nearest"),
    (T + "kmeans_assign", "first_centroids_only", "only the first 64 centroids searched"),
    (T + "infonce_loss", "symmetric_clip", "the symmetric CLIP loss"),
    (T + "infonce_loss", "temperature_multiplied", "logits multiplied by the temperature"),
    (T + "infonce_loss", "no_positive_in_denominator", "positive left out of the logsumexp"),
    (T + "conv2d_1x1_nhwc", "no_bias", "bias dropped"),
    (T + "layernorm_linear", "no_beta", "LayerNorm bias dropped"),
    (T + "layernorm_linear", "rms_norm", "mean not subtracted"),
    (T + "box_iou_matrix", "legacy_plus_one", "widths x2 - x1 + 1"),
    (T + "box_iou_matrix", "union_not_reduced", "intersection not subtracted from the union"),
    (T + "attention_softcap", "no_softcap", "soft-capping skipped"),
    (T + "attention_softcap", "cap_before_scale", "cap applied before the 1/sqrt(D) scale"),
    (T + "attention_varlen", "across_sequences", "sequence boundaries ignored"),
    (T + "attention_varlen", "not_causal", "no causal mask within a sequence"),
    (T + "spmm_csr", "row_shifted", "row offsets off by one"),
    (T + "spmm_csr", "values_ignored", "stored values not multiplied in"),
    (T + "spmv_csr", "row_shifted", "row offsets off by one"),
    (T + "spmv_csr", "values_ignored", "stored values not multiplied in"),
    (T + "grid_sample_bilinear", "align_corners", "align_corners=True"),
    (T + "grid_sample_bilinear", "border_padding", "border instead of zero padding"),
    (T + "roi_align", "not_aligned", "aligned=False (no half-pixel offset)"),
    (T + "roi_align", "one_sample", "one sample per bin instead of 2 x 2"),
    (T + "conv_transpose2d", "flipped_kernel", "kernel flipped"),
    (T + "conv_transpose2d", "no_bias", "bias dropped"),
]


# --- more plausible wrong implementations, in plain PyTorch -------------------------------

def _adaln_unbiased_eps(x, shift, scale):
    # Unbiased variance and eps 1e-5 (torch.var's default, LayerNorm's default eps).
    xf = x.float()
    xn = (xf - xf.mean(-1, keepdim=True)) / torch.sqrt(xf.var(-1, keepdim=True) + 1e-5)
    return (xn * (1 + scale.float()[:, None]) + shift.float()[:, None]).to(x.dtype)


def _adaln_first_batch_vectors(x, shift, scale):
    xn = F.layer_norm(x.float(), (x.shape[-1],), eps=1e-6)
    return (xn * (1 + scale.float()[:1, None]) + shift.float()[:1, None]).to(x.dtype)


def _softcap_cap_after_mask_half(q, k, v, softcap):
    # The cap applied with tanh's argument not divided by the cap (c * tanh(s)).
    qf, kf, vf = q.float(), k.float(), v.float()
    S = q.shape[2]
    s = softcap * torch.tanh((qf @ kf.transpose(-2, -1)) * q.shape[-1] ** -0.5)
    mask = torch.ones(S, S, dtype=torch.bool).tril()
    return (torch.softmax(s.masked_fill(~mask, float("-inf")), -1) @ vf).to(q.dtype)


def _varlen_last_sequence_length(q, k, v, cu_seqlens, max_seqlen):
    # Every sequence treated as if it had the first sequence's length (padding assumption).
    out = torch.zeros_like(q)
    first = int(cu_seqlens[1] - cu_seqlens[0])
    bounds = cu_seqlens.tolist()
    for s, e in zip(bounds[:-1], bounds[1:], strict=True):
        e2 = min(e, s + first)
        qs, ks, vs = (t[s:e2].float().transpose(0, 1) for t in (q, k, v))
        L = e2 - s
        sc = (qs @ ks.transpose(-2, -1)) * q.shape[-1] ** -0.5
        sc = sc.masked_fill(~torch.ones(L, L, dtype=torch.bool).tril(), float("-inf"))
        out[s:e2] = (torch.softmax(sc, -1) @ vs).transpose(0, 1).to(q.dtype)
    return out


def _iou_over_min_area(boxes1, boxes2):
    a1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    a2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt = torch.maximum(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = torch.minimum(boxes1[:, None, 2:], boxes2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    return wh[..., 0] * wh[..., 1] / torch.minimum(a1[:, None], a2[None, :])


def _lion_decay_on_gradient(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    # L2 regularization folded into the gradient instead of decoupled decay.
    g = grad + weight_decay * param
    c = beta1 * exp_avg + (1 - beta1) * g
    m = beta2 * exp_avg + (1 - beta2) * g
    return (param - lr * torch.sign(c), m)


def _conv_t_output_padding(x, w, bias):
    # stride 2 with kernel 3 semantics misapplied: taps 0..2 only (last row/column ignored).
    out = F.conv_transpose2d(x.float(), w.float()[..., :3, :3], bias.float(), stride=2,
                             padding=1, output_padding=1)
    return out.to(x.dtype)


def _grid_sample_nearest(inp, grid):
    return F.grid_sample(inp.float(), grid.float(), mode="nearest", padding_mode="zeros",
                         align_corners=False).to(inp.dtype)


EXTRA: list[tuple[str, str, Callable[..., Any]]] = [
    (T + "adaln_modulate", "unbiased variance, eps 1e-5", _adaln_unbiased_eps),
    (T + "adaln_modulate", "first batch element's vectors for all", _adaln_first_batch_vectors),
    (T + "attention_softcap", "tanh argument not divided by the cap",
     _softcap_cap_after_mask_half),
    (T + "attention_varlen", "every sequence cut to the first one's length",
     _varlen_last_sequence_length),
    (T + "box_iou_matrix", "intersection over the smaller area", _iou_over_min_area),
    (T + "lion_step", "L2 decay folded into the gradient", _lion_decay_on_gradient),
    (T + "conv_transpose2d", "3 x 3 taps with output padding", _conv_t_output_padding),
    (T + "grid_sample_bilinear", "nearest instead of bilinear", _grid_sample_nearest),
]


@pytest.mark.parametrize(("task_id", "variant", "what"), DECLARED, ids=case_ids(DECLARED))
def test_declared_wrong_variant_fails(task_id, variant, what):
    check_case(task_id, what, in_float32(declared(task_id, variant)))


@pytest.mark.parametrize(("task_id", "what", "variant"), EXTRA, ids=case_ids(EXTRA))
def test_known_wrong_variant_fails(task_id, what, variant):
    check_case(task_id, what, variant)
