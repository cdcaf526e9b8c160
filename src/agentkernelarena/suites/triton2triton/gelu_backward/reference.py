"""Reference and inputs for the exact (erf) GELU backward task."""

import math

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (x, dy)


def reference(x: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    cdf = 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))
    pdf = torch.exp(-0.5 * x * x) * (1.0 / math.sqrt(2.0 * math.pi))
    return dy * (cdf + x * pdf)
