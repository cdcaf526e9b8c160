"""Reference and inputs for the bias + tanh-GELU task: y = gelu_tanh(x + b)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(2.0)
    b = torch.randn(config["N"], generator=gen, device=device).mul_(0.5)
    return (x.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x + b, approximate="tanh")
