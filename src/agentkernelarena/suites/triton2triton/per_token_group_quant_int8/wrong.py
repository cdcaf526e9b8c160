"""Known-wrong variants `aka tasks check` must see rejected: rounding rules the description
rules out (half away from zero, truncation) and one scale per row instead of per group."""

import torch

GROUP = 128


def _quantize(x: torch.Tensor, rounding) -> tuple:
    M, N = x.shape
    xf = x.float().view(M, N // GROUP, GROUP)
    scale = xf.abs().amax(dim=2).clamp(min=1e-10) / 127
    q = rounding(xf / scale[..., None]).clamp(-127, 127).to(torch.int8)
    return (q.view(M, N), scale)


def round_half_away(x: torch.Tensor) -> tuple:
    return _quantize(x, lambda v: torch.sign(v) * torch.floor(v.abs() + 0.5))


def truncate(x: torch.Tensor) -> tuple:
    return _quantize(x, torch.trunc)
