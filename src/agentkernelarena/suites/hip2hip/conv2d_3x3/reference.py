"""Reference and inputs for the dense 3x3 convolution task (NCHW, stride 1, padding 1)."""

import torch
import torch.nn.functional as F


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    N, C, K, H, W = config["N"], config["C"], config["K"], config["H"], config["W"]
    x = torch.randn(N, C, H, W, generator=gen, device=device)
    # Kaiming-like weights: outputs of order one.
    weight = torch.randn(K, C, 3, 3, generator=gen, device=device).mul_((9 * C) ** -0.5)
    bias = torch.randn(K, generator=gen, device=device).mul_(0.5)
    return (x.to(dtype), weight.to(dtype), bias.to(dtype))


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    y = F.conv2d(x.to(acc), weight.to(acc), bias.to(acc), stride=1, padding=1)
    return y.to(x.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rule, seen in this configuration (`aka tasks check`)."""
    return {"W not a multiple of 8": config["W"] % 8 != 0}
