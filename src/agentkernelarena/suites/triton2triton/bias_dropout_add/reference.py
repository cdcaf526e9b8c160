"""Reference and inputs for the bias + dropout (given keep-mask) + residual task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N, p = config["M"], config["N"], config["p"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).to(dtype)
    bias = torch.randn(N, generator=gen, device=device).mul_(0.5).to(dtype)
    residual = torch.randn(M, N, generator=gen, device=device).to(dtype)
    # Exactly round((1 - p) * M * N) kept elements at random places.
    n = M * N
    kept = torch.randperm(n, generator=gen, device=device)[: round((1.0 - p) * n)]
    keep = torch.zeros(n, dtype=torch.bool, device=device)
    keep[kept] = True
    return (x, bias, residual, keep.reshape(M, N), p)


def reference(x: torch.Tensor, bias: torch.Tensor, residual: torch.Tensor, keep: torch.Tensor,
              p: float) -> torch.Tensor:
    v = (x + bias) / (1.0 - p)
    return residual + torch.where(keep, v, torch.zeros_like(v))


def min_bytes(config: dict, x, bias, residual, keep, p) -> int:
    """The mask, residual, bias and out once, and only the kept elements of x."""
    size = x.element_size()
    return (keep.numel() + 2 * residual.numel() * size + bias.numel() * size
            + int(keep.sum()) * size)


def exercised(config: dict, x, bias, residual, keep, p) -> dict:
    kept = int(keep.sum())
    return {"some elements dropped": kept < keep.numel(), "some elements kept": kept > 0}
