"""Reference and inputs for the GroupNorm forward task."""

import torch

EPS = 1e-5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, G, CPG, HW = config["B"], config["G"], config["CPG"], config["HW"]
    C = G * CPG
    gen = torch.Generator(device=device).manual_seed(seed)
    # Channels with different means and scales, so per-group and per-channel statistics differ.
    shift = torch.randn(1, C, 1, generator=gen, device=device)
    scale = torch.rand(1, C, 1, generator=gen, device=device).mul_(1.5).add_(0.5)
    x = (torch.randn(B, C, HW, generator=gen, device=device) * scale + shift).to(dtype)
    weight = torch.rand(C, generator=gen, device=device).add_(0.5).to(dtype)
    bias = torch.randn(C, generator=gen, device=device).to(dtype)
    return (x, weight, bias, G)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, groups: int):
    return torch.nn.functional.group_norm(x, groups, weight, bias, eps=EPS)
