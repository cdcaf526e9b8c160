"""Reference and inputs for the pointwise (1x1) NHWC convolution with bias."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, H, W, C, K = config["N"], config["H"], config["W"], config["C"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, H, W, C, generator=gen, device=device).to(dtype)
    w = torch.randn(K, C, generator=gen, device=device).mul_(C**-0.5).to(dtype)
    bias = torch.randn(K, generator=gen, device=device).mul_(0.5).to(dtype)
    return (x, w, bias)


def reference(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    out = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2), w[:, :, None, None], bias)
    return out.permute(0, 2, 3, 1).contiguous()
