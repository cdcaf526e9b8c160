"""Known-wrong versions of fused_add_mul_clamp that the task's comparison must reject."""

import torch


def no_clamp(a, b, c, lo, hi):
    return a * b + c


def clamp_before_add(a, b, c, lo, hi):
    return torch.clamp(a * b, lo, hi) + c


def c_per_row(a, b, c, lo, hi):
    # c broadcast along the wrong axis: row m adds c[m % N] to all its elements.
    M = a.shape[0]
    idx = torch.arange(M, device=a.device) % c.shape[0]
    return torch.clamp(a * b + c[idx][:, None], lo, hi)
