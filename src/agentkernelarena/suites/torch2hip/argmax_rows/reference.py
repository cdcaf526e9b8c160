"""Reference and inputs for the row-wise argmax task (unique maxima, no ties)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    # One maximum per row, 0.5 above every other value (far above the input dtype's rounding),
    # at a random column; in every fourth row it is in the row's last 16 columns.
    top = x.max(dim=1).values + 0.5
    rows = torch.arange(M, device=device)
    pos = torch.randint(0, N, (M,), generator=gen, device=device)
    tail = torch.randint(max(N - 16, 0), N, (M,), generator=gen, device=device)
    pos = torch.where(rows % 4 == 1, tail, pos)
    x[rows, pos] = top
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.argmax(x, dim=-1)


def exercised(config: dict, x: torch.Tensor) -> dict:
    """The stated input rules: every row's maximum unique, some in the last columns."""
    top = x.max(dim=1, keepdim=True).values
    unique = bool(((x == top).sum(dim=1) == 1).all())
    late = bool((x.argmax(dim=1) >= x.shape[1] - 16).any())
    return {"every row's maximum unique": unique, "a maximum in the last 16 columns": late}
