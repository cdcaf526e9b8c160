"""Known-wrong conv1d variants `aka tasks check` must see rejected."""

import torch
import torch.nn.functional as F


def causal_padding(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    # All K - 1 zeros on the left (a causal convolution) instead of split evenly.
    return F.conv1d(F.pad(x, (weight.shape[2] - 1, 0)), weight, bias)


def flipped_kernel(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    # A true convolution (the taps reversed) instead of PyTorch's cross-correlation.
    return F.conv1d(x, weight.flip(-1), bias, padding=(weight.shape[2] - 1) // 2)


def no_bias(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return F.conv1d(x, weight, None, padding=(weight.shape[2] - 1) // 2)
