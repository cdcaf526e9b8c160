"""Known-wrong row L2 normalization variants `aka tasks check` must see rejected."""

import torch

EPS = 1e-12


def eps_added(x: torch.Tensor) -> torch.Tensor:
    return x / (x.norm(dim=-1, keepdim=True) + EPS)


def eps_clamps_squared_norm(x: torch.Tensor) -> torch.Tensor:
    """The clamp applied to the sum of squares (a norm floor of 1e-6 instead of 1e-12)."""
    return x * torch.rsqrt(x.pow(2).sum(dim=-1, keepdim=True).clamp_min(EPS))


def no_clamp(x: torch.Tensor) -> torch.Tensor:
    return x / x.norm(dim=-1, keepdim=True)
