"""Known-wrong variants of soft-capped causal attention."""

import torch


def _attend(s, v):
    S = s.shape[-1]
    causal = torch.ones(S, S, dtype=torch.bool, device=s.device).tril()
    return torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1) @ v


def no_softcap(q, k, v, softcap):
    return _attend((q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5, v)


def cap_before_scale(q, k, v, softcap):
    # The cap applied to the raw dot products, the 1/sqrt(D) scale after it.
    s = softcap * torch.tanh((q @ k.transpose(-2, -1)) / softcap)
    return _attend(s * q.shape[-1] ** -0.5, v)
