"""Reference and inputs for the depthwise 2-D convolution task (NCHW, stride 1 or 2)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W, K = (config[k] for k in ("N", "C", "H", "W", "K"))
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, C, H, W, generator=gen, device=device).to(dtype)
    # Scaled by 1/K so that the outputs stay of order one whatever the filter size.
    w = torch.randn(C, K, K, generator=gen, device=device).div_(K).to(dtype)
    return (x, w, config["S"])


def reference(x: torch.Tensor, w: torch.Tensor, stride: int) -> torch.Tensor:
    C, K = w.shape[0], w.shape[-1]
    return torch.nn.functional.conv2d(x, w.unsqueeze(1), stride=stride, padding=K // 2, groups=C)
