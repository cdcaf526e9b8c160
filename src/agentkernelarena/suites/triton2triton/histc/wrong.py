"""Known-wrong histc variants `aka tasks check` must see rejected."""

import torch


def max_excluded(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    # Half-open [lo, hi): values equal to hi dropped instead of counted in the last bin.
    xf = x.float()
    return torch.histc(xf[xf != hi], bins=bins, min=lo, max=hi)


def out_of_range_clamped(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    # Out-of-range values clamped into the first / last bin instead of ignored.
    return torch.histc(x.float().clamp(lo, hi), bins=bins, min=lo, max=hi)
