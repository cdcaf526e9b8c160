"""Reference and inputs for the bias + GELU (tanh) + residual task: y = r + gelu(x + b)."""

import math

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    x = torch.randn(M, N, generator=gen, device=device)
    b = torch.randn(N, generator=gen, device=device).mul_(0.5)
    residual = torch.randn(M, N, generator=gen, device=device)
    return (x.to(dtype), b.to(dtype), residual.to(dtype))


def reference(x: torch.Tensor, b: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    h = x.to(acc) + b.to(acc)
    gelu = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h.pow(3))))
    return (residual.to(acc) + gelu).to(x.dtype)
