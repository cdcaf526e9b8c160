"""Reference and inputs for the row-wise argmax task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    # Every row's maximum occurs at two random places (exactly equal values, far apart as often
    # as not), so "the first index on ties" decides the answer; every other value is at least
    # 0.5 below it (far above any rounding of the input dtype).
    top = x.max(dim=1, keepdim=True).values + 0.5
    rows = torch.arange(M, device=device)
    for _ in range(2):
        pos = torch.randint(0, N, (M,), generator=gen, device=device)
        x[rows, pos] = top[:, 0]
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.argmax(x, dim=1)


def exercised(config: dict, x: torch.Tensor) -> dict:
    """The description's rule, seen in these inputs: rows whose maximum occurs more than once."""
    ties = (x == x.max(dim=1, keepdim=True).values).sum(dim=1)
    return {"maximum repeated within a row": bool((ties > 1).any())}
