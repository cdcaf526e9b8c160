"""Reference and inputs for the log-softmax backward task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    M, N = config["M"], config["N"]
    logits = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    y = torch.log_softmax(logits, dim=-1).to(dtype)
    dy = torch.randn(M, N, generator=gen, device=device).to(dtype)
    return (y, dy)


def reference(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    return dy - torch.exp(y) * dy.sum(dim=-1, keepdim=True)
