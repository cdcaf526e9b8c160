"""Reference and inputs for y = gelu(x @ w^T + b) with the exact (erf) GELU."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, K, N = config["M"], config["K"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device)
    # nn.Linear-like weights: z = x @ w^T + b has a standard deviation of about 1.
    w = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5)
    b = torch.randn(N, generator=gen, device=device).mul_(0.5)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    z = x.to(acc) @ w.to(acc).T + b.to(acc)
    return torch.nn.functional.gelu(z).to(x.dtype)
