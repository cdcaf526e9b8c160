"""Known-wrong versions of hard_swish that the task's comparison must reject."""

import torch


def hard_sigmoid(x):
    return torch.clamp(x + 3.0, 0.0, 6.0) / 6.0


def no_shift(x):
    return x * torch.clamp(x, 0.0, 6.0) / 6.0


def silu(x):
    return x * torch.sigmoid(x)
