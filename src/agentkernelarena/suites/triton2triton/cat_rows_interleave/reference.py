"""Reference and inputs for the three-way last-dimension concatenation task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M = config["M"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, config["NA"], generator=gen, device=device).to(dtype)
    y = torch.randn(M, config["NB"], generator=gen, device=device).to(dtype)
    z = torch.randn(M, config["NC"], generator=gen, device=device).to(dtype)
    return (x, y, z)


def reference(x: torch.Tensor, y: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
    return torch.cat([x, y, z], dim=-1)
