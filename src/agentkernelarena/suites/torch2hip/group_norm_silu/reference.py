"""Reference and inputs for GroupNorm followed by SiLU on an N x C x H x W feature map."""

import torch

EPS = 1e-6


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Channels of varied scale and offset, as a convolution's output has.
    scale = torch.rand(1, C, 1, 1, generator=gen, device=device).mul_(2.0).add_(0.25)
    shift = torch.randn(1, C, 1, 1, generator=gen, device=device)
    x = torch.randn(N, C, H, W, generator=gen, device=device).mul_(scale).add_(shift)
    w = torch.randn(C, generator=gen, device=device).mul_(0.5).add_(1.0)
    b = torch.randn(C, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), w.to(dtype), b.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = torch.nn.functional.group_norm(x.to(acc), 32, w.to(acc), b.to(acc), EPS)
    return torch.nn.functional.silu(y).to(x.dtype)
