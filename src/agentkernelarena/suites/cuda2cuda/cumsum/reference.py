"""Reference and inputs for the row-wise inclusive prefix-sum task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Scaled by N^-1/2 so that the prefix sums stay of order one along the whole row.
    x = torch.randn(M, N, generator=gen, device=device).mul_(N**-0.5)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x, dim=-1).to(x.dtype)
