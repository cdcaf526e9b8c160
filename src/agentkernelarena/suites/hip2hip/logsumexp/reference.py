"""Reference and inputs for the row-wise log-sum-exp task (float32 output)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(config["M"], config["N"], generator=gen, device=device).mul_(2.0)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return torch.logsumexp(x.to(acc), dim=-1)
