"""instruction2triton/weighted_sum_rows: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).to(dtype)
    w = torch.randn(N, generator=gen, device=device)
    return (x, w)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return (x * w).sum(dim=-1)


def exercised(config: dict, x, w) -> dict:
    # w not representable in x's dtype: rounding it first changes the products.
    return {"w differs from w rounded to x's dtype": bool((w.to(x.dtype).float() != w).any())}
