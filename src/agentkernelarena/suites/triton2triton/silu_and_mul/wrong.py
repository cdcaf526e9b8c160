"""Known-wrong SiLU-and-mul variants `aka tasks check` must see rejected."""

import torch


def halves_swapped(x: torch.Tensor) -> torch.Tensor:
    n = x.shape[-1] // 2
    return torch.nn.functional.silu(x[:, n:]) * x[:, :n]


def sigmoid_gate(x: torch.Tensor) -> torch.Tensor:
    """GLU's sigmoid gate instead of SiLU (x * sigmoid(x))."""
    n = x.shape[-1] // 2
    return torch.sigmoid(x[:, :n]) * x[:, n:]


def interleaved_halves(x: torch.Tensor) -> torch.Tensor:
    """Gate and up read as interleaved columns instead of the two halves."""
    return torch.nn.functional.silu(x[:, 0::2]) * x[:, 1::2]
