"""Reference and inputs for the batched matrix product."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    BATCH, M, N, K = config["BATCH"], config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(BATCH, M, K, generator=gen, device=device).to(dtype)
    b = torch.randn(BATCH, K, N, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    return (a, b)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.bmm(a, b)
