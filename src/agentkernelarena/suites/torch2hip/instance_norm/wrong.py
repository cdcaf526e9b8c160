"""Known-wrong variants of InstanceNorm2d with affine (same arguments as the reference)."""

import torch

EPS = 1e-5


def _affine(y: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return y * w.view(1, -1, 1, 1) + b.view(1, -1, 1, 1)


def batch_statistics(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # Batch norm's statistics (per channel, over N, H and W) instead of per plane.
    xf = x.to(torch.float64)
    mean = xf.mean(dim=(0, 2, 3), keepdim=True)
    var = (xf - mean).pow(2).mean(dim=(0, 2, 3), keepdim=True)
    return _affine((xf - mean) / torch.sqrt(var + EPS), w.double(), b.double()).to(x.dtype)


def unbiased_variance(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    xf = x.to(torch.float64)
    mean = xf.mean(dim=(2, 3), keepdim=True)
    var = xf.var(dim=(2, 3), keepdim=True, unbiased=True)
    return _affine((xf - mean) / torch.sqrt(var + EPS), w.double(), b.double()).to(x.dtype)


def affine_ignored(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    xf = x.to(torch.float64)
    mean = xf.mean(dim=(2, 3), keepdim=True)
    var = (xf - mean).pow(2).mean(dim=(2, 3), keepdim=True)
    return ((xf - mean) / torch.sqrt(var + EPS)).to(x.dtype)
