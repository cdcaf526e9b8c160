"""Known-wrong variant of the max pooling: padding with zeros instead of -inf (a window at the
border whose in-image values are all negative then returns 0)."""

import torch


def zero_padding(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.max_pool2d(torch.nn.functional.pad(x, (1, 1, 1, 1)), 3, stride=2)
