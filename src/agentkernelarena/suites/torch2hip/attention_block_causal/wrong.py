"""Known-wrong variants of causal attention (same arguments as the reference)."""

import torch


def _attend(q, k, v, diagonal, scale=True):
    S, D = q.shape[-2], q.shape[-1]
    scores = q.double() @ k.double().transpose(-2, -1)
    if scale:
        scores = scores * D**-0.5
    if diagonal is not None:
        mask = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(diagonal)
        scores = scores.masked_fill(mask, float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v.double()).to(q.dtype)


def no_mask(q, k, v):
    return _attend(q, k, v, None)


def mask_one_late(q, k, v):
    # Query i also sees key i + 1.
    return _attend(q, k, v, 2)


def scale_missing(q, k, v):
    return _attend(q, k, v, 1, scale=False)
