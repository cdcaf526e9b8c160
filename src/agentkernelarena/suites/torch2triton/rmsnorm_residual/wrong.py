"""Known-wrong variants `aka tasks check` must see rejected: Gemma's (1 + weight) scaling
instead of LLaMA's weight, and the norm taken of x alone (the residual add forgotten)."""

import torch

EPS = 1e-6


def _rms(h: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + EPS) * w


def gemma_offset(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> tuple:
    h = x + residual
    return (_rms(h, 1.0 + weight), h)


def norm_without_residual(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> tuple:
    return (_rms(x, weight), x + residual)
