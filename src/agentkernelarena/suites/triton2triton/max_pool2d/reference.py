"""Reference and inputs for the 3x3, stride 2, padding 1 max pooling task (NCHW)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = (config[k] for k in ("N", "C", "H", "W"))
    gen = torch.Generator(device=device).manual_seed(seed)
    # Negative values are common, so padding with 0 instead of -inf shows at the borders.
    x = torch.randn(N, C, H, W, generator=gen, device=device).sub_(0.5).to(dtype)
    return (x,)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.max_pool2d(x, kernel_size=3, stride=2, padding=1)
