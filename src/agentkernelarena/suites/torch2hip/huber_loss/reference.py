"""Reference and inputs for the elementwise Huber loss (delta 0.5, reduction none)."""

import torch

DELTA = 0.5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    target = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    # Errors of about delta's size: both branches of the loss are taken often.
    err = torch.randn(M, N, generator=gen, device=device).mul_(0.6)
    return ((target + err).to(dtype), target.to(dtype))


def reference(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if pred.dtype == torch.float64 else torch.float32
    d = pred.to(acc) - target.to(acc)
    a = d.abs()
    out = torch.where(a < DELTA, 0.5 * d * d, DELTA * (a - 0.5 * DELTA))
    return out.to(pred.dtype)


def exercised(config: dict, pred: torch.Tensor, target: torch.Tensor) -> dict:
    """Both branches of the loss, seen in these inputs."""
    a = (pred.float() - target.float()).abs()
    return {"|d| < delta somewhere": bool((a < DELTA).any()),
            "|d| >= delta somewhere": bool((a >= DELTA).any())}
