"""Known-wrong variants `aka tasks check` must see rejected: the rounding rules the description
rules out (truncation toward zero and flooring instead of round-half-to-even)."""

import torch


def _quantize(x: torch.Tensor, rounding) -> tuple:
    xf = x.float()
    scale = xf.abs().amax(dim=1).clamp(min=1e-8) / 127
    q = rounding(xf / scale[:, None]).clamp(-127, 127).to(torch.int8)
    return (q, scale)


def truncate(x: torch.Tensor) -> tuple:
    return _quantize(x, torch.trunc)


def floor(x: torch.Tensor) -> tuple:
    return _quantize(x, torch.floor)
