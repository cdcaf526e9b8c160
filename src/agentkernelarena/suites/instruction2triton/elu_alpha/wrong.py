"""Known-wrong versions of elu_alpha that the task's comparison must reject."""

import torch


def alpha_ignored(x, alpha):
    return torch.where(x > 0, x, torch.expm1(x))


def celu(x, alpha):
    return torch.where(x > 0, x, alpha * torch.expm1(x / alpha))


def alpha_on_both_sides(x, alpha):
    return alpha * torch.where(x > 0, x, torch.expm1(x))


def selu_scale(x, alpha):
    return 1.0507009873554805 * torch.where(x > 0, x, alpha * torch.expm1(x))
