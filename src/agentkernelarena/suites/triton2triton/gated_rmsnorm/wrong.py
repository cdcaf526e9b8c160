"""Known-wrong variants of the gated RMSNorm: the gate applied after the norm (Mamba2's
norm_before_gate=True), eps left out, and sigmoid instead of silu as the gate."""

import torch


def _norm(g, eps=1e-5):
    return g * torch.rsqrt(g.pow(2).mean(-1, keepdim=True) + eps)


def gate_after_norm(x, z, weight):
    return _norm(x) * weight * torch.nn.functional.silu(z)


def no_eps(x, z, weight):
    return _norm(x * torch.nn.functional.silu(z), 0.0) * weight


def sigmoid_gate(x, z, weight):
    return _norm(x * torch.sigmoid(z)) * weight
