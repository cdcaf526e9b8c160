"""Known-wrong variants of the training-mode BatchNorm2d forward (same arguments as the
reference)."""

import torch

EPS = 1e-5


def _affine(y: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return y * w.double().view(1, -1, 1, 1) + b.double().view(1, -1, 1, 1)


def instance_statistics(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # Statistics per (sample, channel) plane instead of per channel over the batch.
    xf = x.to(torch.float64)
    mean = xf.mean(dim=(2, 3), keepdim=True)
    var = (xf - mean).pow(2).mean(dim=(2, 3), keepdim=True)
    return _affine((xf - mean) / torch.sqrt(var + EPS), w, b).to(x.dtype)


def eval_mode_defaults(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # Inference mode with freshly initialized running statistics (mean 0, variance 1).
    xf = x.to(torch.float64)
    return _affine(xf / (1.0 + EPS) ** 0.5, w, b).to(x.dtype)


def affine_ignored(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    xf = x.to(torch.float64)
    mean = xf.mean(dim=(0, 2, 3), keepdim=True)
    var = (xf - mean).pow(2).mean(dim=(0, 2, 3), keepdim=True)
    return ((xf - mean) / torch.sqrt(var + EPS)).to(x.dtype)
