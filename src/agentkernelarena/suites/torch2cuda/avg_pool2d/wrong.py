"""Known-wrong variants `aka tasks check` must see rejected: the padding counted in the
divisor (count_include_pad=True), and windows anchored at (2i, 2j) with no padding."""

import torch
import torch.nn.functional as F


def padding_counted(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return F.avg_pool2d(x.to(acc), 3, 2, 1, count_include_pad=True).to(x.dtype)


def no_padding_window(x: torch.Tensor) -> torch.Tensor:
    # Windows x[2i .. 2i + 2, 2j .. 2j + 2] (the padding forgotten), cut at the border.
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = F.pad(x.to(acc), (0, 2, 0, 2))
    ones = F.pad(torch.ones_like(x[:1, :1], dtype=acc), (0, 2, 0, 2))
    total = F.avg_pool2d(xf, 3, 2, 0) * 9.0
    count = (F.avg_pool2d(ones, 3, 2, 0) * 9.0).round()
    return (total / count).to(x.dtype)
