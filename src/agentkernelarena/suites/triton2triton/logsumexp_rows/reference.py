"""Reference and inputs for the row logsumexp task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, V = config["M"], config["V"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Logits with a per-row offset and scale, so rows have very different maxima.
    offset = torch.randn(M, 1, generator=gen, device=device).mul_(4.0)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(3.0).add_(0.5)
    x = torch.randn(M, V, generator=gen, device=device) * scale + offset
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return torch.logsumexp(x.to(acc), dim=-1).to(torch.float32)
