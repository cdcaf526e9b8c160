"""Reference and inputs for 3x3 average pooling, stride 2, padding 1, padding not counted.

out[n, c, i, j] = the mean of x[n, c, 2i - 1 .. 2i + 1, 2j - 1 .. 2j + 1] over the positions
inside the image (4, 6 or 9 of them), in float32 (float64 for float64 inputs), in x's dtype;
Ho = (H - 1) // 2 + 1, Wo = (W - 1) // 2 + 1.
"""

import torch
import torch.nn.functional as F


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    N, C, H, W = config["N"], config["C"], config["H"], config["W"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # A positive offset: dividing the border windows by 9 instead of their size shows.
    x = torch.randn(N, C, H, W, generator=gen, device=device).add_(1.0)
    return (x.to(dtype),)


def reference(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    ones = torch.ones_like(xf[:1, :1])
    total = F.avg_pool2d(xf, 3, 2, 1, count_include_pad=True) * 9.0
    count = F.avg_pool2d(ones, 3, 2, 1, count_include_pad=True) * 9.0
    return (total / count.round()).to(x.dtype)
