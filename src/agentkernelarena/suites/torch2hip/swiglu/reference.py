"""Reference and inputs for the SwiGLU task: silu(x[..., :N]) * x[..., N:]."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["B"], config["S"], 2 * config["N"], generator=gen, device=device)
    return (x.mul_(2.0).to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    gate, up = x.chunk(2, dim=-1)
    return torch.nn.functional.silu(gate) * up
