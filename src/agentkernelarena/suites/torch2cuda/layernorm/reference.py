"""Reference and inputs for the LayerNorm task: y = (x - mean) / sqrt(var + eps) * w + b."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Rows with their own offset and scale, so that the mean matters and a one-pass
    # E[x^2] - E[x]^2 variance would lose digits.
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(2.0)
    scale = torch.rand(M, 1, generator=gen, device=device).add_(0.5)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale).add_(offset)
    w = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)
    b = torch.randn(N, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    mean = xf.mean(-1, keepdim=True)
    var = (xf - mean).pow(2).mean(-1, keepdim=True)
    return ((xf - mean) * torch.rsqrt(var + EPS) * w.to(acc) + b.to(acc)).to(x.dtype)
