"""Reference and inputs for the row_sum fixture."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    return (torch.randn(config["M"], config["N"], generator=gen, device=device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.sum(dim=1)
