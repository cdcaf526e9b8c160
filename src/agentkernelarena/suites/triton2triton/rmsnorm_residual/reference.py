"""Reference and inputs for the residual-add + RMSNorm task."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of varied scale, as activations have.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.25)
    x = (torch.randn(M, N, generator=gen, device=device) * scale).to(dtype)
    residual = torch.randn(M, N, generator=gen, device=device).to(dtype)
    weight = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0).to(dtype)
    return (x, residual, weight)


def reference(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    h = x + residual
    return h * torch.rsqrt(h.pow(2).mean(dim=-1, keepdim=True) + EPS) * weight
