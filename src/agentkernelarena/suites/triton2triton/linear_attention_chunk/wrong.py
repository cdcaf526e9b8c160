"""Known-wrong variants of causal linear attention: the diagonal left out (s < t), no causal
mask at all, and the DK^-0.5 scale left out."""

import torch


def _lin(q, k, v, diagonal=0, causal=True, scale=True):
    T = q.shape[2]
    scores = q @ k.transpose(-2, -1)
    if causal:
        mask = torch.ones(T, T, dtype=torch.bool, device=q.device).tril(diagonal)
        scores = scores.masked_fill(~mask, 0.0)
    out = scores @ v
    return out * q.shape[-1] ** -0.5 if scale else out


def strictly_causal(q, k, v):
    return _lin(q, k, v, diagonal=-1)


def not_causal(q, k, v):
    return _lin(q, k, v, causal=False)


def no_scale(q, k, v):
    return _lin(q, k, v, scale=False)
