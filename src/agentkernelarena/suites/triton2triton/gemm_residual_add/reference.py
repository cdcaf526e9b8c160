"""Reference and inputs for the linear + bias + residual task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    # nn.Linear layout, scaled so x @ w^T has unit scale whatever K is.
    w = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    residual = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (x, w, bias, residual)


def reference(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor,
              residual: torch.Tensor) -> torch.Tensor:
    return x @ w.T + bias + residual
