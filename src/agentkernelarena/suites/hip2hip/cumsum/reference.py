"""Reference and inputs for the row-wise inclusive prefix sum task (float32 accumulation)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    # Increments with a small per-row drift: the running sums wander away from zero.
    drift = torch.randn(config["M"], 1, generator=gen, device=device).mul_(0.05)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).add_(drift)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return torch.cumsum(x.to(acc), dim=-1).to(x.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"row length not a multiple of 8": config["N"] % 8 != 0}
