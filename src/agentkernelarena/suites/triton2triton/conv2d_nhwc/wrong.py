"""Known-wrong variants of the NHWC convolution: a true convolution (the filter flipped in
both spatial directions) instead of the cross-correlation, and the filter's R and S axes
swapped (weights read as KSRC)."""

import torch


def _conv(x: torch.Tensor, w_krsc: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2), w_krsc.permute(0, 3, 1, 2), padding=1)
    return y.permute(0, 2, 3, 1).contiguous()


def flipped_filter(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return _conv(x, w.flip(1, 2))


def swapped_rs(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return _conv(x, w.transpose(1, 2))
