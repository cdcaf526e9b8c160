"""Known-wrong residual-add + LayerNorm variants `aka tasks check` must see rejected."""

import torch

EPS = 1e-5


def _ln(h, weight, bias, unbiased=False, center=True):
    mean = h.mean(dim=-1, keepdim=True) if center else torch.zeros_like(h[:, :1])
    var = (h - mean).pow(2).sum(dim=-1, keepdim=True) / (h.shape[-1] - int(unbiased))
    return (h - mean) / torch.sqrt(var + EPS) * weight + bias


def _h(x, residual):
    return x + residual


def normalizes_x_not_sum(x, residual, weight, bias):
    return (_ln(x, weight, bias), _h(x, residual))


def unbiased_variance(x, residual, weight, bias):
    h = _h(x, residual)
    return (_ln(h, weight, bias, unbiased=True), h)


def no_mean_subtraction(x, residual, weight, bias):
    h = _h(x, residual)
    return (_ln(h, weight, bias, center=False), h)


def residual_not_updated(x, residual, weight, bias):
    h = _h(x, residual)
    return (_ln(h, weight, bias), residual.clone())
