"""Known-wrong variants of the adaptive average pooling to 7 x 7 (same arguments as the
reference)."""

import torch
import torch.nn.functional as F

OUT = 7


def _pool(x: torch.Tensor, bounds_h: list, bounds_w: list, mean: bool = True) -> torch.Tensor:
    xf = x.to(torch.float64)
    out = torch.empty(x.shape[0], x.shape[1], OUT, OUT, dtype=torch.float64)
    for i, (h0, h1) in enumerate(bounds_h):
        for j, (w0, w1) in enumerate(bounds_w):
            win = xf[:, :, h0:h1, w0:w1]
            out[:, :, i, j] = win.mean(dim=(2, 3)) if mean else win.sum(dim=(2, 3))
    return out.to(x.dtype)


def floor_windows(x: torch.Tensor) -> torch.Tensor:
    # Window ends rounded down: no overlap, windows one short where the size is no multiple.
    def b(n: int) -> list:
        return [(i * n // OUT, max((i + 1) * n // OUT, i * n // OUT + 1)) for i in range(OUT)]
    return _pool(x, b(x.shape[2]), b(x.shape[3]))


def fixed_kernel_pool(x: torch.Tensor) -> torch.Tensor:
    # avg_pool2d with the kernel and stride of the floor ratio (what a multiple of 7 would use).
    kh, kw = x.shape[2] // OUT, x.shape[3] // OUT
    return F.avg_pool2d(x.to(torch.float64), (kh, kw), (kh, kw))[:, :, :OUT, :OUT].to(x.dtype)


def window_sum(x: torch.Tensor) -> torch.Tensor:
    def b(n: int) -> list:
        return [(i * n // OUT, -(-(i + 1) * n // OUT)) for i in range(OUT)]
    return _pool(x, b(x.shape[2]), b(x.shape[3]), mean=False)
