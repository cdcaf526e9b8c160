"""Reference and inputs for the GroupNorm task (float32 statistics, output in x's dtype)."""

import torch
import torch.nn.functional as F

EPS = 1e-5
GROUPS = 32  # GroupNorm(32, C)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    N, CPG, H, W = config["N"], config["CPG"], config["H"], config["W"]
    G = GROUPS
    C = G * CPG
    # Activations with their own offset and spread per (sample, channel): the group mean must
    # be subtracted, and a group's statistics differ from each of its channels'.
    offset = torch.randn(N, C, 1, 1, generator=gen, device=device).mul_(2.0)
    spread = torch.rand(N, C, 1, 1, generator=gen, device=device).add_(0.5)
    x = torch.randn(N, C, H, W, generator=gen, device=device).mul_(spread).add_(offset)
    weight = torch.randn(C, generator=gen, device=device).mul_(0.2).add_(1.0)
    bias = torch.randn(C, generator=gen, device=device).mul_(0.2)
    return (x.to(dtype), weight.to(dtype), bias.to(dtype))


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = F.group_norm(x.to(acc), GROUPS, weight.to(acc), bias.to(acc), eps=EPS)
    return y.to(x.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    return {
        "several channels per group": config["CPG"] > 1,
        "H * W not a multiple of 8": (config["H"] * config["W"]) % 8 != 0,
    }
