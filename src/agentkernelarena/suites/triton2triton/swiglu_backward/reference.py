"""Reference and inputs for the SwiGLU (silu(g) * u) backward task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    g = torch.randn(M, N, generator=gen, device=device).mul_(2.0).to(dtype)
    u = torch.randn(M, N, generator=gen, device=device).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (g, u, dy)


def reference(g: torch.Tensor, u: torch.Tensor, dy: torch.Tensor):
    s = torch.sigmoid(g)
    du = dy * g * s
    dg = dy * u * s * (1.0 + g * (1.0 - s))
    return (dg, du)
