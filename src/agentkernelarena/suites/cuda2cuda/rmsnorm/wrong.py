"""Known-wrong variants of RMSNorm (same arguments as the reference)."""

import torch


def no_weight(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


def layernorm_centered(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    # The mean subtracted first (LayerNorm without bias), not RMSNorm.
    xc = x - x.mean(-1, keepdim=True)
    return xc * torch.rsqrt(xc.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def sum_not_mean(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).sum(-1, keepdim=True) + 1e-6) * w
