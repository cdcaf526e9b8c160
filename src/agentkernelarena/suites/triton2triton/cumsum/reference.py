"""Reference and inputs for the row-wise inclusive prefix-sum task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    if dtype.is_floating_point:
        # Scaled by N^-1/2 so the prefix sums stay of order one along the whole row.
        x = torch.randn(M, N, generator=gen, device=device).mul_(N**-0.5).to(dtype)
    else:
        x = torch.randint(-50, 51, (M, N), generator=gen, device=device, dtype=dtype)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x, dim=-1).to(x.dtype)
