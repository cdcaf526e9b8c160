"""instruction2triton/outer_product_scale: the reference and the inputs."""

import torch

SCALE = 1.3


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn(config["M"], generator=gen, device=device).to(dtype)
    b = torch.randn(config["N"], generator=gen, device=device).to(dtype)
    return (a, b, SCALE)


def reference(a: torch.Tensor, b: torch.Tensor, s: float) -> torch.Tensor:
    return a[:, None] * b[None, :] * s
