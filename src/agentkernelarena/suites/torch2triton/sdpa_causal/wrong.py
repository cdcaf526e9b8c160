"""Known-wrong variants `aka tasks check` must see rejected: no causal mask, the mask the wrong
way round (each query attending to itself and the keys after it), no 1 / sqrt(D) scale, and a
1 / D scale."""

import torch


def _attend(q, k, v, scale, keep):
    scores = (q @ k.transpose(-2, -1)) * scale
    if keep is not None:
        scores = scores.masked_fill(~keep, float("-inf"))
    return torch.softmax(scores, dim=-1) @ v


def not_causal(q, k, v):
    return _attend(q, k, v, q.shape[-1] ** -0.5, None)


def mask_reversed(q, k, v):
    S = q.shape[2]
    keep = torch.ones(S, S, dtype=torch.bool, device=q.device).triu()
    return _attend(q, k, v, q.shape[-1] ** -0.5, keep)


def unscaled(q, k, v):
    S = q.shape[2]
    keep = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    return _attend(q, k, v, 1.0, keep)


def scaled_by_d(q, k, v):
    S = q.shape[2]
    keep = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    return _attend(q, k, v, 1.0 / q.shape[-1], keep)
