"""Known-wrong variants `aka tasks check` must see rejected: the causal mask left out, P used
without its transpose (P @ do), and the 1/sqrt(D) scale left out of the logits."""

import torch


def _probs(q, k, causal=True, scale=True):
    S = q.shape[2]
    s = q @ k.transpose(-2, -1)
    if scale:
        s = s * q.shape[-1] ** -0.5
    if causal:
        mask = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1)


def not_causal(q, k, do, lse):
    return _probs(q, k, causal=False).transpose(-2, -1) @ do


def p_not_transposed(q, k, do, lse):
    return _probs(q, k) @ do


def scale_left_out(q, k, do, lse):
    return _probs(q, k, scale=False).transpose(-2, -1) @ do
