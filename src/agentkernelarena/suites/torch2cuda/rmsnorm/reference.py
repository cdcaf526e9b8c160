"""Reference and inputs for the RMSNorm task: y = x / sqrt(mean(x^2) + eps) * w."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(1.5)
    w = torch.randn(config["N"], generator=gen, device=device).mul_(0.5).add_(1.0)
    return (x.to(dtype), w.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    r = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS)
    return (xf * r * w.to(acc)).to(x.dtype)
