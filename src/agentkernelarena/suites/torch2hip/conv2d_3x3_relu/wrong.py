"""Known-wrong variants of relu(conv2d(x, w, b, padding=1)) (same arguments as the
reference)."""

import torch
import torch.nn.functional as F


def no_padding_shift(x, w, b):
    # Taps indexed from the output position without the -1 of the padding (a shifted window).
    y = F.conv2d(F.pad(x.double(), (0, 2, 0, 2)), w.double(), b.double())
    return torch.relu(y).to(x.dtype)


def relu_before_bias(x, w, b):
    y = torch.relu(F.conv2d(x.double(), w.double(), None, padding=1))
    return (y + b.double().view(1, -1, 1, 1)).to(x.dtype)


def kernel_flipped(x, w, b):
    # A true convolution (kernel flipped) instead of PyTorch's cross-correlation.
    y = F.conv2d(x.double(), w.double().flip(-1, -2), b.double(), padding=1)
    return torch.relu(y).to(x.dtype)
