"""Reference and inputs for liger-kernel's GeGLU forward: c = gelu_tanh(a) * b."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    shape = (config["M"], config["N"])
    a = torch.randn(shape, generator=gen, device=device).mul_(2.0).to(dtype)
    b = torch.randn(shape, generator=gen, device=device).to(dtype)
    return (a, b)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(a, approximate="tanh") * b


def erf_geglu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Known wrong: the exact (erf) GELU instead of the tanh approximation."""
    return torch.nn.functional.gelu(a) * b
