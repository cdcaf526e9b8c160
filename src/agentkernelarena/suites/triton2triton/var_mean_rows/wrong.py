"""Known-wrong row (variance, mean) variants `aka tasks check` must see rejected."""

import torch


def biased_variance(x: torch.Tensor):
    var, mean = torch.var_mean(x.double(), dim=1, correction=0)
    return (var.float(), mean.float())


def sum_of_squares_in_float32(x: torch.Tensor):
    # One pass, E[x^2] - E[x]^2 with float32 sums: cancels catastrophically for rows whose mean
    # is large against their spread.
    xf = x.float()
    n = x.shape[1]
    s1 = xf.sum(dim=1)
    s2 = (xf * xf).sum(dim=1)
    mean = s1 / n
    var = (s2 - s1 * mean) / (n - 1)
    return (var, mean)
