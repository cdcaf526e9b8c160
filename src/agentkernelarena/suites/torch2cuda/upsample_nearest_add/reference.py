"""Reference and inputs for the FPN top-down step: out = fine + nearest_upsample_2x(coarse).

fine is N x C x 2h x 2w, coarse N x C x h x w (NCHW, contiguous); the sum is taken in float32
(float64 for float64 inputs) and rounded to the inputs' dtype.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, h, w = config["N"], config["C"], config["h"], config["w"]
    gen = torch.Generator(device=device).manual_seed(seed)
    fine = torch.randn(N, C, 2 * h, 2 * w, generator=gen, device=device).to(dtype)
    coarse = torch.randn(N, C, h, w, generator=gen, device=device).mul_(2.0).to(dtype)
    return (fine, coarse)


def reference(fine: torch.Tensor, coarse: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if fine.dtype == torch.float64 else torch.float32
    up = coarse.to(acc).repeat_interleave(2, dim=2).repeat_interleave(2, dim=3)
    return (fine.to(acc) + up).to(fine.dtype)
