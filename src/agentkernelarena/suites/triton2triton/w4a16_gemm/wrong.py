"""Known-wrong variants `aka tasks check` must see rejected: the nibble order swapped (high
nibble first), the zero point of 8 left out, and one scale per row instead of per group."""

import torch

GROUP = 128


def _unpack(w_packed: torch.Tensor, dtype: torch.dtype, high_first: bool) -> torch.Tensor:
    low = (w_packed & 0xF).to(dtype)
    high = (w_packed >> 4).to(dtype)
    pair = (high, low) if high_first else (low, high)
    return torch.stack(pair, dim=-1).flatten(1)


def nibbles_swapped(x: torch.Tensor, w_packed: torch.Tensor, scales: torch.Tensor):
    codes = _unpack(w_packed, scales.dtype, high_first=True)
    return x @ ((codes - 8) * scales.repeat_interleave(GROUP, dim=1)).T


def no_zero_point(x: torch.Tensor, w_packed: torch.Tensor, scales: torch.Tensor):
    codes = _unpack(w_packed, scales.dtype, high_first=False)
    return x @ (codes * scales.repeat_interleave(GROUP, dim=1)).T


def scale_per_row(x: torch.Tensor, w_packed: torch.Tensor, scales: torch.Tensor):
    codes = _unpack(w_packed, scales.dtype, high_first=False)
    return x @ ((codes - 8) * scales[:, :1]).T
