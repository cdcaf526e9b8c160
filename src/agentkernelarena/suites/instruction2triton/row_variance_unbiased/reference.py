"""instruction2triton/row_variance_unbiased: the reference and the inputs."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows with their own offset (up to about +-24, far from 0, so a sum of squares without
    # centring cancels badly) and their own spread (0.2 to 3).
    shift = torch.randn(M, 1, generator=gen, device=device).mul_(8.0)
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.8).add_(0.2)
    x = torch.randn(M, N, generator=gen, device=device).mul_(scale).add_(shift)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.float64).var(dim=-1, unbiased=True).to(
        torch.float64 if x.dtype == torch.float64 else torch.float32)


def exercised(config: dict, x) -> dict:
    mean = x.double().mean(-1)
    spread = x.double().std(-1)
    return {"a row whose mean is far from 0 (|mean| > 4 * std)":
                bool((mean.abs() > 4 * spread).any())}
