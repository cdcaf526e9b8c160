"""Reference and inputs for bias add + exact GELU + eval-mode dropout (the identity)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(2.0)
    bias = torch.randn(config["N"], generator=gen, device=device)
    return (x.to(dtype), bias.to(dtype))


def reference(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x + bias)
