"""Known-wrong variants `aka tasks check` must see rejected: rounding half away from zero
(C's round(), or floor(v + 0.5) on magnitudes) instead of half to even, and truncation toward
zero (a plain float-to-int cast)."""

import torch


def _quantize(x: torch.Tensor, rounding) -> tuple:
    xf = x.float()
    scale = xf.abs().amax(dim=-1, keepdim=True) / 127
    q = rounding(xf / scale).clamp(-127, 127).to(torch.int8)
    return (q, scale)


def half_away_from_zero(x: torch.Tensor) -> tuple:
    return _quantize(x, lambda v: torch.sign(v) * torch.floor(v.abs() + 0.5))


def truncate(x: torch.Tensor) -> tuple:
    return _quantize(x, torch.trunc)
