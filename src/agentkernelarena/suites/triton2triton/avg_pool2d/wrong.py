"""Known-wrong variant of the average pooling: count_include_pad=True (every window divided by
K * K, padded taps counted as zeros)."""

import torch


def count_include_pad(x: torch.Tensor, k: int, stride: int) -> torch.Tensor:
    return torch.nn.functional.avg_pool2d(x, k, stride=stride, padding=k // 2,
                                          count_include_pad=True)
