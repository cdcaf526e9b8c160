"""Reference and inputs for the depthwise causal conv1d + SiLU of a Mamba block."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, D, L, W = config["B"], config["D"], config["L"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, D, L, generator=gen, device=device).to(dtype)
    weight = torch.randn(D, W, generator=gen, device=device).mul_(W**-0.5).to(dtype)
    bias = torch.randn(D, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, weight, bias)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    D, W = weight.shape
    L = x.shape[-1]
    y = torch.nn.functional.conv1d(x, weight[:, None, :], bias, padding=W - 1, groups=D)
    return torch.nn.functional.silu(y[..., :L])
