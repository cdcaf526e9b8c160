"""Reference and inputs for the row-wise sort task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(3.0)
    # Every other row is rounded to multiples of 1/4: many repeated values (+ 0.0 turns any
    # -0.0 into 0.0, so equal values are equal bit for bit).
    x[1::2] = x[1::2].mul(4.0).round().div(4.0).add(0.0)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.sort(x, dim=1).values


def exercised(config: dict, x: torch.Tensor) -> dict:
    """The description's rule, seen in these inputs: values repeated within a row."""
    s = torch.sort(x, dim=1).values
    return {"repeated values within a row": bool((s[:, 1:] == s[:, :-1]).any())}
