"""Known-wrong 3x3 convolution variants (same arguments as the reference)."""

import torch.nn.functional as F


def flipped_kernel(x, weight, bias):
    """A true convolution (the kernel flipped) instead of the cross-correlation conv2d computes."""
    y = F.conv2d(x, weight.flip(2, 3), bias, stride=1, padding=1)
    return y.to(x.dtype)


def no_bias(x, weight, bias):
    return F.conv2d(x, weight, None, stride=1, padding=1).to(x.dtype)
