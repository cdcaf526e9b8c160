"""Reference and inputs for L2 normalization of embedding rows: y = x / max(||x||_2, 1e-12)."""

import torch

EPS = 1e-12


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(4.0).add_(0.1)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    norm = xf.pow(2).sum(-1, keepdim=True).sqrt().clamp_min(EPS)
    return (xf / norm).to(x.dtype)
