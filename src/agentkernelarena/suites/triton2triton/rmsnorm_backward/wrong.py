"""Known-wrong RMSNorm backward variants `aka tasks check` must see rejected."""

import torch

EPS = 1e-6


def _parts(x, weight, dy, eps=EPS):
    rstd = torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + eps)
    return rstd, x * rstd, weight[None, :] * dy


def no_projection_term(x, weight, dy):
    """dx as if rstd did not depend on x."""
    rstd, xhat, wdy = _parts(x, weight, dy)
    return ((rstd * wdy).to(x.dtype), (dy * xhat).sum(dim=0).to(weight.dtype))


def dw_without_rstd(x, weight, dy):
    """dweight summed from dy * x, not dy * xhat."""
    rstd, xhat, wdy = _parts(x, weight, dy)
    dx = rstd * (wdy - xhat * (wdy * xhat).mean(dim=1, keepdim=True))
    return (dx.to(x.dtype), (dy * x).sum(dim=0).to(weight.dtype))


def no_eps(x, weight, dy):
    rstd, xhat, wdy = _parts(x, weight, dy, eps=0.0)
    dx = rstd * (wdy - xhat * (wdy * xhat).mean(dim=1, keepdim=True))
    return (dx.to(x.dtype), (dy * xhat).sum(dim=0).to(weight.dtype))
