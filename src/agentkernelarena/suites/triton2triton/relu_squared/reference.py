"""Reference and inputs for the bias-add + squared ReLU (Primer) task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(2.0).to(dtype)
    bias = torch.randn(config["N"], generator=gen, device=device).to(dtype)
    return (x, bias)


def reference(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.square(torch.relu(x + bias))
