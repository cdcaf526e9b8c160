"""Known-wrong versions of interleave_two that the task's comparison must reject."""

import torch


def b_first(a, b):
    return torch.stack((b, a), dim=-1).reshape(a.shape[0], -1)


def concatenated(a, b):
    return torch.cat((a, b), dim=1)


def b_ignored(a, b):
    return torch.stack((a, a), dim=-1).reshape(a.shape[0], -1)
