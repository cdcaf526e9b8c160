"""Reference and inputs for bilinear resampling to a given output size (align_corners=False)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = (config[k] for k in ("N", "C", "H", "W"))
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(N, C, H, W, generator=gen, device=device).to(dtype)
    return (x, config["OH"], config["OW"])


def reference(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    return torch.nn.functional.interpolate(x, size=(out_h, out_w), mode="bilinear",
                                           align_corners=False)
