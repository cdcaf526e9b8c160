"""Known-wrong variants `aka tasks check` must see rejected: the ALiBi bias left out (plain
causal attention), the slopes assigned to the heads in reverse order, and the bias added
instead of subtracted (distant keys favoured)."""

import torch


def _attn(q, k, v, slopes):
    S = q.shape[2]
    pos = torch.arange(S, device=q.device)
    dist = (pos[:, None] - pos[None, :]).to(q.dtype)
    scores = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    scores = scores - slopes.to(q.dtype)[None, :, None, None] * dist
    causal = torch.ones(S, S, dtype=torch.bool, device=q.device).tril()
    return torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1) @ v


def no_alibi(q, k, v, slopes):
    return _attn(q, k, v, torch.zeros_like(slopes))


def slopes_reversed(q, k, v, slopes):
    return _attn(q, k, v, slopes.flip(0))


def bias_sign_flipped(q, k, v, slopes):
    return _attn(q, k, v, -slopes)
