"""Reference and inputs for the GEGLU task: out = x[:, :N] * gelu(x[:, N:]) (exact gelu)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], 2 * config["N"], generator=gen, device=device).mul_(1.5)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    n = x.shape[1] // 2
    hidden, gate = x[:, :n].to(acc), x[:, n:].to(acc)
    gelu = 0.5 * gate * (1.0 + torch.erf(gate * 0.5**0.5))
    return (hidden * gelu).to(x.dtype)
