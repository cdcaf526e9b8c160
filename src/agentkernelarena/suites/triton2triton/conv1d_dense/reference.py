"""Reference and inputs for a dense 1D convolution with "same" padding (NCL layout)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, CI, CO, K, L = config["B"], config["CI"], config["CO"], config["K"], config["L"]
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(B, CI, L, generator=gen, device=device).to(dtype)
    w = torch.randn(CO, CI, K, generator=gen, device=device).mul_((CI * K) ** -0.5).to(dtype)
    bias = torch.randn(CO, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, w, bias)


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.conv1d(x, weight, bias, padding=(weight.shape[2] - 1) // 2)
