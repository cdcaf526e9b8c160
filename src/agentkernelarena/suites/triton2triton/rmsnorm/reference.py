"""Reference and inputs for the RMSNorm task."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    M, N = config["M"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Rows of varied scale, as activations have; every seventh row (from row 3) is tiny, so that
    # its mean square is of the order of eps and where eps sits matters.
    scale = torch.rand(M, 1, generator=gen, device=device).mul_(2.0).add_(0.25)
    scale[3::7] = 1.0e-3
    x = (torch.randn(M, N, generator=gen, device=device) * scale).to(dtype)
    weight = torch.randn(N, generator=gen, device=device).mul_(0.5).add_(1.0).to(dtype)
    return (x, weight)


def reference(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + EPS) * weight


def exercised(config: dict, x: torch.Tensor, weight: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs (`aka tasks check`)."""
    ms = x.float().pow(2).mean(dim=-1)
    return {"a row whose mean square is below 10 * eps": bool((ms < 10 * EPS).any()),
            "N not a multiple of 256": config["N"] % 256 != 0}
