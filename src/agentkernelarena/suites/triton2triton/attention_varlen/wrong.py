"""Known-wrong variants of causal varlen attention."""

import torch


def _attend(q, k, v, causal):
    qs, ks, vs = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)
    s = (qs @ ks.transpose(-2, -1)) * q.shape[-1] ** -0.5
    if causal:
        L = q.shape[0]
        mask = torch.ones(L, L, dtype=torch.bool, device=q.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return (torch.softmax(s, dim=-1) @ vs).transpose(0, 1)


def across_sequences(q, k, v, cu_seqlens, max_seqlen):
    # The packed tokens treated as one long causal sequence (sequence boundaries ignored).
    return _attend(q, k, v, True)


def not_causal(q, k, v, cu_seqlens, max_seqlen):
    out = torch.empty_like(q)
    bounds = cu_seqlens.tolist()
    for s, e in zip(bounds[:-1], bounds[1:], strict=True):
        out[s:e] = _attend(q[s:e], k[s:e], v[s:e], False)
    return out
