"""Reference and inputs for the row sort task: torch.sort(x, dim=-1) of distinct values."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # Distinct values in every row (a random permutation of 0..N-1 plus a jitter below one
    # half, scaled, with a per-row offset): no ties, so the sorted order and the indices are
    # unique, and negative and positive values are mixed.
    rank = torch.rand(M, N, generator=gen, device=device).argsort(dim=-1).float()
    jitter = torch.rand(M, N, generator=gen, device=device).mul_(0.4).add_(0.05)
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(10.0)
    x = (rank + jitter).mul_(100.0 / max(N, 1)).sub_(50.0).add_(offset)
    return (x,)


def reference(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    values, indices = torch.sort(x, dim=-1)
    return values, indices


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    n = config["N"]
    return {"row length not a power of two": n & (n - 1) != 0}
