"""Reference and inputs for the skinny (decode-batch) linear layer."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K = config["M"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    w = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    return (x, w)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x @ w.T
