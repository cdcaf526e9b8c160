"""Reference and inputs for the training-mode BatchNorm2d forward (batch statistics, NCHW)."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Channels of varied scale and offset, and samples that differ in scale and offset too
    # (so that per-plane statistics are not the channel's).
    cs = torch.rand(1, C, 1, 1, generator=gen, device=device).mul_(1.5).add_(0.25)
    co = torch.randn(1, C, 1, 1, generator=gen, device=device).mul_(0.5)
    ss = torch.rand(N, C, 1, 1, generator=gen, device=device).mul_(0.8).add_(0.6)
    so = torch.randn(N, C, 1, 1, generator=gen, device=device).mul_(0.4)
    x = torch.randn(N, C, H, W, generator=gen, device=device).mul_(ss).add_(so).mul_(cs).add_(co)
    w = torch.randn(C, generator=gen, device=device).mul_(0.5).add_(1.0)
    b = torch.randn(C, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    mean = xf.mean(dim=(0, 2, 3), keepdim=True)
    var = (xf - mean).pow(2).mean(dim=(0, 2, 3), keepdim=True)
    y = (xf - mean) / torch.sqrt(var + EPS)
    y = y * w.to(acc).view(1, -1, 1, 1) + b.to(acc).view(1, -1, 1, 1)
    return y.to(x.dtype)
