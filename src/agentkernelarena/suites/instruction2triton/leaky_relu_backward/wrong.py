"""Known-wrong versions of leaky_relu_backward that the task's comparison must reject."""

import torch


def zero_counts_as_positive(dy, x, slope):
    return torch.where(x >= 0, dy, dy * slope)


def relu_backward(dy, x, slope):
    return torch.where(x > 0, dy, torch.zeros_like(dy))


def sides_swapped(dy, x, slope):
    return torch.where(x > 0, dy * slope, dy)
