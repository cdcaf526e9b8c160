"""Known-wrong variants `aka tasks check` must see rejected: a causal mask where none is asked
for, and the scores scaled by 1 / D instead of 1 / sqrt(D)."""

import torch


def causal(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    S = q.shape[-2]
    scores = (q.to(acc) @ k.to(acc).transpose(-1, -2)) * q.shape[-1] ** -0.5
    future = torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1)
    scores = scores.masked_fill(future, float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v.to(acc)).to(q.dtype)


def scale_by_d(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    scores = (q.to(acc) @ k.to(acc).transpose(-1, -2)) / q.shape[-1]
    return (torch.softmax(scores, dim=-1) @ v.to(acc)).to(q.dtype)
