"""Reference and inputs for pairwise Euclidean distances."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, D = config["M"], config["N"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Two clouds with different centres and spreads: no pair of points coincides.
    x = torch.randn(M, D, generator=gen, device=device).add_(0.3).to(dtype)
    y = torch.randn(N, D, generator=gen, device=device).mul_(1.3).to(dtype)
    return (x, y)


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (x[:, None, :] - y[None, :, :]).square().sum(-1).sqrt()
