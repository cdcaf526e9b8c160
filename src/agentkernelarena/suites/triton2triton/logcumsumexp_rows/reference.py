"""Reference and inputs for log-cumsum-exp along rows."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    M, N = config["M"], config["N"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    # Rows offset by -100 .. 100 (the first row by 100): exp(x) overflows or underflows float32.
    offset = torch.rand(M, 1, generator=gen, device=device).mul_(200.0).sub_(100.0)
    offset[0] = 100.0
    return ((x + offset).to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.logcumsumexp(x, dim=-1)
