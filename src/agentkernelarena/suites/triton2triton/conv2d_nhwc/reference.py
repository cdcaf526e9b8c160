"""Reference and inputs for the dense NHWC 3x3 convolution task (stride 1, same padding)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, H, W, C, K = (config[k] for k in ("N", "H", "W", "C", "K"))
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, H, W, C, generator=gen, device=device).to(dtype)
    # KRSC weights, scaled by 1/sqrt(9 C) so the outputs are of order one.
    w = torch.randn(K, 3, 3, C, generator=gen, device=device).mul_((9 * C) ** -0.5).to(dtype)
    return (x, w)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2), w.permute(0, 3, 1, 2), padding=1)
    return y.permute(0, 2, 3, 1).contiguous()
