"""Known-wrong BatchNorm inference variants `aka tasks check` must see rejected."""

import torch

EPS = 1e-5


def _apply(x, mean, scale, shift):
    return ((x.to(scale.dtype) - mean[None, :, None]) * scale[None, :, None]
            + shift[None, :, None]).to(x.dtype)


def eps_outside_sqrt(x, running_mean, running_var, weight, bias):
    return _apply(x, running_mean, weight / (running_var.sqrt() + EPS), bias)


def variance_not_square_rooted(x, running_mean, running_var, weight, bias):
    return _apply(x, running_mean, weight / (running_var + EPS), bias)


def channel_as_last_index(x, running_mean, running_var, weight, bias):
    """The channel of flat element i taken as i % C (a channels-last layout)."""
    N, C, HW = x.shape
    flat = x.reshape(-1).to(running_mean.dtype)
    c = torch.arange(flat.numel(), device=x.device) % C
    y = (flat - running_mean[c]) * torch.rsqrt(running_var[c] + EPS) * weight[c] + bias[c]
    return y.reshape(N, C, HW).to(x.dtype)
