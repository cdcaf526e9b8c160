"""Reference and inputs for the GroupNorm backward task."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, G, CPG, HW = config["B"], config["G"], config["CPG"], config["HW"]
    C = G * CPG
    gen = torch.Generator(device=device).manual_seed(seed)
    # Channels with different means and scales, so that per-group statistics matter.
    shift = torch.randn(1, C, 1, generator=gen, device=device)
    scale = torch.rand(1, C, 1, generator=gen, device=device).mul_(1.5).add_(0.5)
    x = (torch.randn(B, C, HW, generator=gen, device=device) * scale + shift).to(dtype)
    dy = torch.randn(B, C, HW, generator=gen, device=device).to(dtype)
    weight = torch.rand(C, generator=gen, device=device).add_(0.5).to(dtype)
    # The statistics a forward pass saves: float32, biased variance, eps inside the root.
    xg = x.float().reshape(B, G, CPG * HW)
    mean = xg.mean(dim=-1)
    var = (xg - mean[..., None]).pow(2).mean(dim=-1)
    rstd = torch.rsqrt(var + EPS)
    return (x, dy, weight, mean.contiguous(), rstd.contiguous())


def reference(x: torch.Tensor, dy: torch.Tensor, weight: torch.Tensor, mean: torch.Tensor,
              rstd: torch.Tensor):
    B, C, HW = x.shape
    G = mean.shape[1]
    xg = x.reshape(B, G, C // G, HW)
    xhat = (xg - mean[:, :, None, None]) * rstd[:, :, None, None]
    dyg = dy.reshape(B, G, C // G, HW)
    g = weight.reshape(1, G, C // G, 1) * dyg
    c1 = g.mean(dim=(2, 3), keepdim=True)
    c2 = (g * xhat).mean(dim=(2, 3), keepdim=True)
    dx = (rstd[:, :, None, None] * (g - c1 - xhat * c2)).reshape(B, C, HW)
    dweight = (dyg * xhat).sum(dim=(0, 3)).reshape(C)
    dbias = dyg.sum(dim=(0, 3)).reshape(C)
    return (dx.to(x.dtype), dweight.to(x.dtype), dbias.to(x.dtype))
