"""Known-wrong variants of the depthwise convolution: a true convolution (the filter flipped in
both directions) instead of a cross-correlation, and the filter transposed (rows and columns
swapped)."""

import torch


def flipped_filter(x: torch.Tensor, w: torch.Tensor, stride: int) -> torch.Tensor:
    C, K = w.shape[0], w.shape[-1]
    return torch.nn.functional.conv2d(x, w.flip(1, 2).unsqueeze(1), stride=stride,
                                      padding=K // 2, groups=C)


def transposed_filter(x: torch.Tensor, w: torch.Tensor, stride: int) -> torch.Tensor:
    C, K = w.shape[0], w.shape[-1]
    return torch.nn.functional.conv2d(x, w.transpose(1, 2).unsqueeze(1), stride=stride,
                                      padding=K // 2, groups=C)
