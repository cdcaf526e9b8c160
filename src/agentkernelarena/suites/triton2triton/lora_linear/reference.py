"""Reference and inputs for the LoRA linear layer task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, K, R = config["M"], config["N"], config["K"], config["R"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, K, generator=gen, device=device).to(dtype)
    w = torch.randn(N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    # x @ a^T has unit scale; the adapter term scale * (x a^T) b^T about half the base term's.
    a = torch.randn(R, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    b = torch.randn(N, R, generator=gen, device=device).mul_(0.25 * R**-0.5).to(dtype)
    scale = 2.0
    return (x, w, a, b, scale)


def reference(x: torch.Tensor, w: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
              scale: float) -> torch.Tensor:
    return x @ w.T + scale * ((x @ a.T) @ b.T)
