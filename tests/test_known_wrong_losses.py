"""Known-wrong variants of the activation and training-loss tasks (bce_with_logits, focal_loss,
smooth_l1_rows, entropy_rows, cosine_similarity_rows, relu_squared, mish, nll_loss_weighted,
z_loss_rows, distill_kl_temperature) fail their task's comparison on the CPU configurations,
while the reference passes.

Each case is a plausible wrong implementation in plain PyTorch: the naive log(sigmoid) form of
binary cross-entropy that overflows on confident logits, a pos_weight or alpha on the wrong
term, the beta scaling of smooth L1 left out, an entropy from rounded probabilities, ...
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from known_wrong import TASKS, case_ids, check_case, declared


def _bce_naive_clamped(x, y, pos_weight):
    # The naive form with log clamped at -100 (what binary_cross_entropy does on probabilities):
    # finite, but wrong for confident logits.
    p = torch.sigmoid(x.float())
    yf, pw = y.float(), pos_weight.float()
    loss = -(pw * yf * torch.log(p).clamp(min=-100) + (1 - yf) * torch.log1p(-p).clamp(min=-100))
    return loss.to(x.dtype)


def _focal_gamma_one(x, targets):
    p = torch.sigmoid(x.float())
    t = targets.float()
    ce = torch.nn.functional.binary_cross_entropy_with_logits(x.float(), t, reduction="none")
    p_t = p * t + (1 - p) * (1 - t)
    return ((0.25 * t + 0.75 * (1 - t)) * ce * (1 - p_t)).to(x.dtype)


def _smooth_l1_rows_unmasked_tail(pred, target, beta):
    # Rows summed over whole 256-column blocks with the padding read as beta-sized residuals.
    ref = torch.nn.functional.smooth_l1_loss(pred.float(), target.float(), beta=beta,
                                             reduction="none").sum(1)
    pad = (-pred.shape[1]) % 256
    return ref + pad * 0.5 * beta


def _entropy_in_half(logits):
    logp = torch.log_softmax(logits.float(), -1).to(logits.dtype).float()
    return -(torch.exp(logp) * logp).sum(-1)


def _cosine_normalized_separately_no_clamp(a, b):
    # a / ||a|| and b / ||b|| normalized first (F.normalize-style eps 1e-12), then the dot.
    an = torch.nn.functional.normalize(a.float(), dim=1)
    bn = torch.nn.functional.normalize(b.float(), dim=1)
    return (an * bn).sum(1).to(a.dtype)


def _mish_naive_float32(x):
    # The overflowing tanh formula evaluated in float32 (what a kernel would compute).
    s = torch.log1p(torch.exp(x.float()))
    e = torch.exp(2 * s)
    return (x.float() * (e - 1) / (e + 1)).to(x.dtype)


def _nll_reads_ignored_as_last_class(logp, target, weight):
    # -100 wrapped like a negative Python index: class C - 100 mod C.
    t = torch.where(target == -100, target % logp.shape[1], target)
    return (-weight.float()[t] * logp.float().gather(1, t[:, None])[:, 0]).to(logp.dtype)


def _z_loss_unshifted(logits, coef):
    # log(sum(exp(x))) in float32 without the max shift: overflows on drifted rows.
    lse = torch.log(torch.exp(logits.float()).sum(-1))
    return coef * lse * lse


def _distill_kl_logits_rounded(teacher, student, T):
    # teacher / T and student / T rounded to the logits' dtype before the log-softmax.
    a = (teacher.float() / T).to(teacher.dtype).float()
    b = (student.float() / T).to(student.dtype).float()
    lp, lq = torch.log_softmax(a, -1), torch.log_softmax(b, -1)
    return (torch.exp(lp) * (lp - lq)).sum(-1) * T * T


def _bce(name: str) -> Callable[..., Any]:
    return declared("triton2triton/bce_with_logits", name)


CASES: list[tuple[str, str, Callable[..., Any]]] = [
    ("triton2triton/bce_with_logits", "naive log(sigmoid) form overflows",
     _bce("naive_log_sigmoid")),
    ("triton2triton/bce_with_logits", "naive form with logs clamped at -100", _bce_naive_clamped),
    ("triton2triton/bce_with_logits", "pos_weight ignored", _bce("pos_weight_ignored")),
    ("triton2triton/bce_with_logits", "pos_weight on the negative term",
     _bce("pos_weight_on_negatives")),
    ("triton2triton/focal_loss", "alpha on the negatives",
     declared("triton2triton/focal_loss", "alpha_swapped")),
    ("triton2triton/focal_loss", "alpha left out",
     declared("triton2triton/focal_loss", "alpha_left_out")),
    ("triton2triton/focal_loss", "(1 - p)^gamma instead of (1 - p_t)^gamma",
     declared("triton2triton/focal_loss", "modulating_factor_on_p")),
    ("triton2triton/focal_loss", "gamma 1 instead of 2", _focal_gamma_one),
    ("triton2triton/smooth_l1_rows", "beta scaling of the quadratic branch missing",
     declared("triton2triton/smooth_l1_rows", "beta_scaling_missing")),
    ("triton2triton/smooth_l1_rows", "huber_loss (beta times smooth L1)",
     declared("triton2triton/smooth_l1_rows", "huber_instead")),
    ("triton2triton/smooth_l1_rows", "row mean instead of sum",
     declared("triton2triton/smooth_l1_rows", "mean_instead_of_sum")),
    ("triton2triton/smooth_l1_rows", "padding columns counted", _smooth_l1_rows_unmasked_tail),
    ("triton2triton/entropy_rows", "entropy in bits",
     declared("triton2triton/entropy_rows", "log2_entropy")),
    ("triton2triton/entropy_rows", "row maximum left out of the logsumexp",
     declared("triton2triton/entropy_rows", "missing_max_shift_term")),
    ("triton2triton/entropy_rows", "probabilities rounded to bfloat16",
     declared("triton2triton/entropy_rows", "softmax_rounded_to_input_dtype")),
    ("triton2triton/entropy_rows", "log-probabilities rounded to the logits' dtype",
     _entropy_in_half),
    ("triton2triton/cosine_similarity_rows", "eps on the product of the norms",
     declared("triton2triton/cosine_similarity_rows", "eps_on_product")),
    ("triton2triton/cosine_similarity_rows", "eps added to the product",
     declared("triton2triton/cosine_similarity_rows", "eps_added")),
    ("triton2triton/cosine_similarity_rows", "eps left out",
     declared("triton2triton/cosine_similarity_rows", "eps_left_out")),
    ("triton2triton/cosine_similarity_rows", "normalize with eps 1e-12, then dot",
     _cosine_normalized_separately_no_clamp),
    ("triton2triton/relu_squared", "no relu",
     declared("triton2triton/relu_squared", "square_without_relu")),
    ("triton2triton/relu_squared", "bias added after the activation",
     declared("triton2triton/relu_squared", "bias_after_activation")),
    ("triton2triton/relu_squared", "relu not squared",
     declared("triton2triton/relu_squared", "relu_not_squared")),
    ("triton2triton/mish", "naive tanh overflows (float64)",
     declared("triton2triton/mish", "naive_tanh")),
    ("triton2triton/mish", "naive tanh overflows (float32)", _mish_naive_float32),
    ("triton2triton/mish", "SiLU instead", declared("triton2triton/mish", "silu_instead")),
    ("triton2triton/mish", "x * softplus(x)",
     declared("triton2triton/mish", "softplus_without_tanh")),
    ("triton2triton/nll_loss_weighted", "ignored rows read as class 0",
     declared("triton2triton/nll_loss_weighted", "ignored_rows_as_class_0")),
    ("triton2triton/nll_loss_weighted", "ignored rows read as class -100 mod C",
     _nll_reads_ignored_as_last_class),
    ("triton2triton/nll_loss_weighted", "class weight left out",
     declared("triton2triton/nll_loss_weighted", "weight_left_out")),
    ("triton2triton/nll_loss_weighted", "weight indexed by the row",
     declared("triton2triton/nll_loss_weighted", "weight_by_row")),
    ("triton2triton/z_loss_rows", "logsumexp not squared",
     declared("triton2triton/z_loss_rows", "lse_not_squared")),
    ("triton2triton/z_loss_rows", "row max instead of logsumexp",
     declared("triton2triton/z_loss_rows", "max_instead_of_logsumexp")),
    ("triton2triton/z_loss_rows", "coefficient left out",
     declared("triton2triton/z_loss_rows", "coef_left_out")),
    ("triton2triton/z_loss_rows", "no max shift (float32 overflow)", _z_loss_unshifted),
    ("triton2triton/distill_kl_temperature", "T^2 left out",
     declared("triton2triton/distill_kl_temperature", "t_squared_left_out")),
    ("triton2triton/distill_kl_temperature", "KL(student || teacher)",
     declared("triton2triton/distill_kl_temperature", "reversed_direction")),
    ("triton2triton/distill_kl_temperature", "student not divided by T",
     declared("triton2triton/distill_kl_temperature", "student_not_tempered")),
    ("triton2triton/distill_kl_temperature", "scaled logits rounded to the input dtype",
     _distill_kl_logits_rounded),
]


@pytest.mark.parametrize(("task_id", "what", "variant"), CASES, ids=case_ids(CASES))
def test_known_wrong_loss_variant_fails(task_id, what, variant):
    assert task_id in TASKS
    check_case(task_id, what, variant)
