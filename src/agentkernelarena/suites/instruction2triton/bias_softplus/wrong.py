"""Known-wrong versions of bias_softplus that the task's comparison must reject."""

import torch
import torch.nn.functional as F


def default_beta(x, bias, beta, threshold):
    return F.softplus(x + bias)


def no_threshold(x, bias, beta, threshold):
    z = x + bias
    return torch.log1p(torch.exp(beta * z)) / beta


def threshold_on_z(x, bias, beta, threshold):
    z = x + bias
    return torch.where(z > threshold, z, torch.log1p(torch.exp(beta * z)) / beta)


def bias_ignored(x, bias, beta, threshold):
    return F.softplus(x, beta=beta, threshold=threshold)


def bias_per_row(x, bias, beta, threshold):
    m = x.shape[0]
    b = bias.repeat((m + bias.shape[0] - 1) // bias.shape[0])[:m, None]
    return F.softplus(x + b, beta=beta, threshold=threshold)
