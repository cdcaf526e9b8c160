"""Known-wrong variants of LayerNorm with saved statistics: the unbiased variance, eps added
outside the square root, and the standard deviation saved where rstd belongs."""

import torch

EPS = 1e-5


def _stats(x):
    xf = x.to(torch.promote_types(x.dtype, torch.float32))
    mean = xf.mean(dim=-1)
    return xf, mean


def unbiased_variance(x):
    xf, mean = _stats(x)
    rstd = torch.rsqrt(xf.var(dim=-1, unbiased=True) + EPS)
    return (((xf - mean[:, None]) * rstd[:, None]).to(x.dtype), mean, rstd)


def eps_outside_root(x):
    xf, mean = _stats(x)
    var = (xf - mean[:, None]).pow(2).mean(dim=-1)
    rstd = 1.0 / (var.sqrt() + EPS)
    return (((xf - mean[:, None]) * rstd[:, None]).to(x.dtype), mean, rstd)


def std_saved_not_rstd(x):
    xf, mean = _stats(x)
    var = (xf - mean[:, None]).pow(2).mean(dim=-1)
    rstd = torch.rsqrt(var + EPS)
    return (((xf - mean[:, None]) * rstd[:, None]).to(x.dtype), mean, 1.0 / rstd)
