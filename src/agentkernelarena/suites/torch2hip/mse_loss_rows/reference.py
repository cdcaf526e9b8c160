"""Reference and inputs for the per-row mean squared error task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Targets of varied scale per row and predictions off by errors of varied size.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.1)
    target = torch.randn(M, N, generator=gen, device=device).mul_(scale)
    err = torch.randn(M, N, generator=gen, device=device).mul_(scale * 0.5)
    pred = target + err.add_(0.1)
    return (pred.to(dtype), target.to(dtype))


def reference(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if pred.dtype == torch.float64 else torch.float32
    d = pred.to(acc) - target.to(acc)
    return (d * d).mean(dim=-1).to(pred.dtype)
