"""Reference and inputs for the row-wise softmax task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(2.0).to(dtype)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x, dim=-1)
