"""Reference and inputs for GroupNorm with 32 groups and an affine transform, NCHW.

Group g of sample n holds channels g * C / 32 ... (g + 1) * C / 32 - 1 over all H x W positions;
y = (x - mean) / sqrt(var + 1e-5) * weight[c] + bias[c] with the group's mean and biased
variance, in float32 (float64 for float64 inputs), in x's dtype.
"""

import torch

GROUPS = 32
EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Channels with their own offset and scale: the group statistics are not the channels'.
    offset = torch.randn(1, C, 1, 1, generator=gen, device=device).mul_(1.5)
    scale = torch.rand(1, C, 1, 1, generator=gen, device=device).add_(0.5)
    x = torch.randn(N, C, H, W, generator=gen, device=device).mul_(scale).add_(offset)
    weight = torch.randn(C, generator=gen, device=device).mul_(0.5).add_(1.0)
    bias = torch.randn(C, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), weight.to(dtype), bias.to(dtype))


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    N, C, H, W = x.shape
    xg = x.to(acc).reshape(N, GROUPS, -1)
    mean = xg.mean(-1, keepdim=True)
    var = (xg - mean).pow(2).mean(-1, keepdim=True)
    y = ((xg - mean) * torch.rsqrt(var + EPS)).reshape(N, C, H, W)
    return (y * weight.to(acc)[:, None, None] + bias.to(acc)[:, None, None]).to(x.dtype)
