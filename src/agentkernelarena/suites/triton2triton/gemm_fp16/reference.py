"""Reference and inputs for the plain GEMM task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(M, K, generator=gen, device=device).to(dtype)
    # B is scaled by K^-1/2 so that A @ B has unit scale whatever K is.
    b = torch.randn(K, N, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    return (a, b)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b
