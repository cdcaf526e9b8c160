"""Reference and inputs for the row-wise layer normalization task (weight and bias, eps 1e-5)."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    # A per-row offset and spread, so that the mean and the variance both matter.
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(3.0)
    spread = torch.rand(M, 1, generator=gen, device=device).add_(0.5)
    x = torch.randn(M, N, generator=gen, device=device).mul_(spread).add_(shift)
    w = torch.randn(N, generator=gen, device=device).mul_(0.2).add_(1.0)
    b = torch.randn(N, generator=gen, device=device).mul_(0.1)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = torch.nn.functional.layer_norm(
        x.to(acc), (x.shape[-1],), weight.to(acc), bias.to(acc), eps=EPS
    )
    return y.to(x.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"row length not a multiple of 8": config["N"] % 8 != 0}
