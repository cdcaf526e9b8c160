"""Known-wrong variants `aka tasks check` must see rejected: bilinear instead of nearest
upsampling, and the coarse map's rows and columns swapped (a transposed index)."""

import torch
import torch.nn.functional as F


def bilinear(fine: torch.Tensor, coarse: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if fine.dtype == torch.float64 else torch.float32
    up = F.interpolate(coarse.to(acc), scale_factor=2.0, mode="bilinear", align_corners=False)
    return (fine.to(acc) + up).to(fine.dtype)


def shifted_by_one_row(fine: torch.Tensor, coarse: torch.Tensor) -> torch.Tensor:
    # The coarse row of output row y taken as (y + 1) / 2 (rounding up), clamped at the edge.
    acc = torch.float64 if fine.dtype == torch.float64 else torch.float32
    h = coarse.shape[2]
    rows = ((torch.arange(2 * h, device=fine.device) + 1) // 2).clamp(max=h - 1)
    up = coarse.to(acc)[:, :, rows].repeat_interleave(2, dim=3)
    return (fine.to(acc) + up).to(fine.dtype)
