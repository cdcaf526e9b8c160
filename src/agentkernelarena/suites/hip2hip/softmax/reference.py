"""Reference and inputs for the row-wise softmax task (float32 arithmetic, output in x's dtype)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Logit-like rows with their own offsets: the row maximum must be subtracted.
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(20.0)
    x = torch.randn(M, N, generator=gen, device=device).mul_(3.0).add_(shift)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return torch.softmax(x.to(acc), dim=-1).to(x.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"row length not a multiple of 8": config["N"] % 8 != 0}
