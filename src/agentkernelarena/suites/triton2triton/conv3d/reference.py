"""Reference and inputs for the dense channels-last 3x3x3 convolution task (stride 1, same
padding)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, D, H, W, C, K = (config[k] for k in ("N", "D", "H", "W", "C", "K"))
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, D, H, W, C, generator=gen, device=device).to(dtype)
    # KTRSC weights, scaled by 1/sqrt(27 C) so the outputs are of order one.
    w = torch.randn(K, 3, 3, 3, C, generator=gen, device=device).mul_((27 * C) ** -0.5).to(dtype)
    return (x, w)


def reference(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.conv3d(x.permute(0, 4, 1, 2, 3), w.permute(0, 4, 1, 2, 3), padding=1)
    return y.permute(0, 2, 3, 4, 1).contiguous()
