"""instruction2triton/reverse_rows: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    return (torch.randn(config["M"], config["N"], generator=gen, device=device).to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.flip(x, dims=[-1])
