"""Reference and inputs for the residual add + RMSNorm task (returns (normed, residual))."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of varied scale, as a transformer's hidden states have.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.25)
    # About one row in eight (the first, when there are several) is tiny (mean square ~1e-6,
    # like the epsilon), so that where the epsilon goes matters.
    tiny = torch.rand(M, 1, generator=gen, device=device) < 0.125
    if M > 1:
        tiny[0] = True
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale)
    residual = torch.randn(M, N, generator=gen, device=device)
    x = torch.where(tiny, x * 1e-3, x)
    residual = torch.where(tiny, residual * 1e-3, residual)
    weight = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)
    return (x.to(dtype), residual.to(dtype), weight.to(dtype))


def reference(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> tuple:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    h = x.to(acc) + residual.to(acc)
    r = torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + EPS)
    return ((h * r * weight.to(acc)).to(x.dtype), h.to(x.dtype))
