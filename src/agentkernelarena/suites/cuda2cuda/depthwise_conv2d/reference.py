"""Reference and inputs for the depthwise 2-D convolution task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W, K = (config[k] for k in ("N", "C", "H", "W", "K"))
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, C, H, W, generator=gen, device=device)
    # Scaled by 1/K so that the outputs stay of order one whatever the filter size.
    w = torch.randn(C, K, K, generator=gen, device=device).div_(K)
    return (x.to(dtype), w.to(dtype))


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    C, K = w.shape[0], w.shape[-1]
    return torch.nn.functional.conv2d(x, w.unsqueeze(1), padding=K // 2, groups=C)
