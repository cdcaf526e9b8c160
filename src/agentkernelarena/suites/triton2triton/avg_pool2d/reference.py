"""Reference and inputs for the K x K average pooling task (count_include_pad=False)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = (config[k] for k in ("N", "C", "H", "W"))
    gen = torch.Generator(device=device).manual_seed(seed)
    # A positive offset, so dividing a border window by K * K instead of its in-image count
    # changes its value well beyond rounding.
    x = torch.randn(N, C, H, W, generator=gen, device=device).add_(1.0).to(dtype)
    return (x, config["K"], config["S"])


def reference(x: torch.Tensor, k: int, stride: int) -> torch.Tensor:
    return torch.nn.functional.avg_pool2d(x, k, stride=stride, padding=k // 2,
                                          count_include_pad=False)
