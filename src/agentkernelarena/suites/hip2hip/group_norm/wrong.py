"""Known-wrong GroupNorm variants (same arguments as the reference)."""

import torch
import torch.nn.functional as F

EPS = 1e-5
GROUPS = 32


def per_channel_statistics(x, weight, bias):
    """Instance norm: each channel normalized by its own statistics, not its group's."""
    y = F.group_norm(x, x.shape[1], weight, bias, eps=EPS)
    return y.to(x.dtype)


def mean_not_subtracted(x, weight, bias):
    """The group's root mean square used as the scale, the mean never subtracted."""
    N, C = x.shape[:2]
    xg = x.reshape(N, GROUPS, -1)
    y = xg * torch.rsqrt(xg.pow(2).mean(-1, keepdim=True) + EPS)
    y = y.reshape(x.shape) * weight[:, None, None] + bias[:, None, None]
    return y.to(x.dtype)
