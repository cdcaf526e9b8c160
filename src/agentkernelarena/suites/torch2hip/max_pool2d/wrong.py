"""Known-wrong variants of the 2 x 2 max pooling (same arguments as the reference)."""

import torch
import torch.nn.functional as F


def average_pool(x: torch.Tensor) -> torch.Tensor:
    return F.avg_pool2d(x, 2, 2)


def windows_aligned_to_the_end(x: torch.Tensor) -> torch.Tensor:
    # The windows counted from the last row: where H is odd, the first row is the one skipped.
    off = x.shape[2] % 2
    H2, W2 = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    return F.max_pool2d(x[:, :, off:off + H2, :W2], 2, 2)


def first_row_only(x: torch.Tensor) -> torch.Tensor:
    H2, W2 = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    v = x[:, :, 0:H2:2, :W2]
    return torch.maximum(v[..., 0::2], v[..., 1::2]).contiguous()
