"""Known-wrong variants of bias + dropout + residual: the 1 / (1 - p) scale forgotten, the mask
read as a drop-mask, and the bias added after the dropout instead of before it."""

import torch


def no_scale(x, bias, residual, keep, p):
    v = x + bias
    return residual + torch.where(keep, v, torch.zeros_like(v))


def mask_inverted(x, bias, residual, keep, p):
    v = (x + bias) / (1.0 - p)
    return residual + torch.where(keep, torch.zeros_like(v), v)


def bias_outside_dropout(x, bias, residual, keep, p):
    v = x / (1.0 - p)
    return residual + torch.where(keep, v, torch.zeros_like(v)) + bias
