"""Reference and inputs for the RMSNorm (with weight) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of different scales, so that the normalization matters row by row.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(0.05)
    # Every 7th row (from row 3) nearly silent: its mean square is of the order of eps, so a
    # misplaced or missing eps shows.
    scale[3::7] = 1e-3
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale)
    w = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0)
    return (x.to(dtype), w.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"N not a multiple of 8": config["N"] % 8 != 0,
            "rows with a mean square near eps": config["M"] > 3}
