"""Reference and inputs for the float16 matrix product (HGEMM, float32 accumulation) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N, K = config["M"], config["N"], config["K"]
    a = torch.randn(M, K, generator=gen, device=device)
    # Scaled by K^-1/2 so that C stays of order one whatever K is.
    b = torch.randn(K, N, generator=gen, device=device).mul_(K**-0.5)
    return (a.to(torch.float16), b.to(torch.float16))


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b
