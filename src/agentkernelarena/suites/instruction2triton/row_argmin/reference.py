"""instruction2triton/row_argmin: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(M, N, generator=gen, device=device).mul_(2.0)
    # Every row's minimum occurs at two or three random places (exactly equal values, often far
    # apart), so "the first index on ties" decides the answer; every other value is at least
    # 0.5 above it, far beyond any rounding of the input dtype. The row's maximum is repeated
    # too (an argmax would still have to pick among ties).
    low = x.min(dim=1, keepdim=True).values - 0.5
    high = x.max(dim=1, keepdim=True).values + 0.5
    rows = torch.arange(M, device=device)
    for copies, value in ((3, low), (2, high)):
        for _ in range(copies):
            pos = torch.randint(0, N, (M,), generator=gen, device=device)
            x[rows, pos] = value[:, 0]
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.argmin(x, dim=-1)


def exercised(config: dict, x: torch.Tensor) -> dict:
    ties = (x == x.min(dim=1, keepdim=True).values).sum(dim=1)
    return {"minimum repeated within a row": bool((ties > 1).any())}
