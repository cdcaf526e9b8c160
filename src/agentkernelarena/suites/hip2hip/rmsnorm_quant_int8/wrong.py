"""Known-wrong variants of RMSNorm + int8 quantization (same arguments as the reference)."""

import torch

EPS = 1e-6


def _normalized(x, weight):
    xf, wf = x.float(), weight.float()
    r = torch.rsqrt((xf * xf).mean(-1) + EPS)
    return (xf * r[:, None]) * wf[None, :]


def truncated(x, weight):
    """Quantized by truncation toward zero instead of rounding to nearest even."""
    y = _normalized(x, weight)
    scale = y.abs().amax(-1) / 127.0
    return torch.trunc(y / scale[:, None]).clamp_(-127, 127).to(torch.int8), scale


def scale_255(x, weight):
    """The absmax mapped to 255 levels (asymmetric range) instead of 127."""
    y = _normalized(x, weight)
    scale = y.abs().amax(-1) / 255.0
    return torch.round(y / scale[:, None]).clamp_(-127, 127).to(torch.int8), scale
