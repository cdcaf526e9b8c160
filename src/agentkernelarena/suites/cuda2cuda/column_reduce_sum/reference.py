"""Reference and inputs for the column-sum (reduction over rows) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # A mean per column (so that sums do not hover around zero) plus noise.
    mean = torch.rand(1, N, generator=gen, device=device).add_(0.25)
    x = torch.randn(M, N, generator=gen, device=device).add_(mean)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.sum(dim=0)


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    return {"N not a multiple of 4": config["N"] % 4 != 0,
            "M not a multiple of 8": config["M"] % 8 != 0}
