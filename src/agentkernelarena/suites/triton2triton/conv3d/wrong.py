"""Known-wrong variants of the channels-last 3-D convolution: a true convolution (the filter
flipped along all three spatial axes) instead of the cross-correlation, and the filter's depth
and row axes swapped."""

import torch


def _conv(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.conv3d(x.permute(0, 4, 1, 2, 3), w.permute(0, 4, 1, 2, 3), padding=1)
    return y.permute(0, 2, 3, 4, 1).contiguous()


def flipped_filter(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return _conv(x, w.flip(1, 2, 3))


def swapped_tr(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return _conv(x, w.transpose(1, 2))
