"""Reference and inputs for the backward pass of a row softmax."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    logits = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    y = torch.softmax(logits, dim=-1).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (y, dy)


def reference(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    y32 = y.to(torch.float64 if y.dtype == torch.float64 else torch.float32)
    dy32 = dy.to(y32.dtype)
    dot = (y32 * dy32).sum(dim=-1, keepdim=True)
    return (y32 * (dy32 - dot)).to(y.dtype)
