"""Known-wrong RMSNorm variants `aka tasks check` must see rejected."""

import torch

EPS = 1e-6


def eps_outside_sqrt(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return x / (x.pow(2).mean(dim=-1, keepdim=True).sqrt() + EPS) * weight


def no_eps(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True)) * weight


def gemma_one_plus_weight(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + EPS) * (1.0 + weight)


def mean_over_padded_block(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    # The sum of squares divided by the power-of-two block width instead of N.
    n = x.shape[-1]
    block = 1 << (n - 1).bit_length()
    return x * torch.rsqrt(x.pow(2).sum(dim=-1, keepdim=True) / block + EPS) * weight
