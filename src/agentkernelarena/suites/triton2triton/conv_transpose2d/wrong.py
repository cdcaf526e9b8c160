"""Known-wrong variants of the stride-2 transposed convolution."""

import torch


def _wide(t: torch.Tensor) -> torch.Tensor:
    return t if t.dtype in (torch.float32, torch.float64) else t.float()


def flipped_kernel(x, w, bias):
    # The 4 x 4 kernel flipped (a convolution over the zero-upsampled input with w as is).
    out = torch.nn.functional.conv_transpose2d(_wide(x), _wide(w).flip(-1, -2), _wide(bias),
                                               stride=2, padding=1)
    return out.to(x.dtype)


def no_bias(x, w, bias):
    out = torch.nn.functional.conv_transpose2d(_wide(x), _wide(w), None, stride=2, padding=1)
    return out.to(x.dtype)
