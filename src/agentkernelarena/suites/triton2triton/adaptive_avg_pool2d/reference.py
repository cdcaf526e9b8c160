"""Reference and inputs for adaptive average pooling to a fixed output size (NCHW)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = (config[k] for k in ("N", "C", "H", "W"))
    gen = torch.Generator(device=device).manual_seed(seed)
    # Offset by 0.5 so window means are not centred on zero.
    x = torch.randn(N, C, H, W, generator=gen, device=device).add_(0.5).to(dtype)
    return (x, config["OH"], config["OW"])


def reference(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    return torch.nn.functional.adaptive_avg_pool2d(x, (out_h, out_w))


def exercised(config: dict, *inputs) -> dict:
    """Windows of different sizes that overlap: OH does not divide H (or OW does not divide W)."""
    x, out_h, out_w = inputs
    H, W = x.shape[-2:]
    return {"uneven overlapping windows": H % out_h != 0 or W % out_w != 0}
