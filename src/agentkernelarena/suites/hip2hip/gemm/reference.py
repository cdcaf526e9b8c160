"""Reference and inputs for the half-precision matrix product (float32 accumulation)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N, K = config["M"], config["N"], config["K"]
    a = torch.randn(M, K, generator=gen, device=device)
    # Scaled so that the entries of the product are of order one whatever K is.
    b = torch.randn(K, N, generator=gen, device=device).div_(K**0.5)
    return (a.to(dtype), b.to(dtype))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if a.dtype == torch.float64 else torch.float32
    return (a.to(acc) @ b.to(acc)).to(a.dtype)
