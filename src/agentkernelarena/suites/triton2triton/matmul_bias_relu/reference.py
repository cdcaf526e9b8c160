"""Reference and inputs for the fused matmul + bias + ReLU task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(M, K, generator=gen, device=device).to(dtype)
    # B is scaled by K^-1/2 so that A @ B has unit scale whatever K is.
    b = torch.randn(K, N, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    return (a, b, bias)


def reference(a: torch.Tensor, b: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.relu(a @ b + bias)
