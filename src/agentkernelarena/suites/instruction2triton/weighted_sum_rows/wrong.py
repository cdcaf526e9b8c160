"""Known-wrong versions of weighted_sum_rows that the task's comparison must reject."""

import torch


def unweighted(x, w):
    return x.sum(dim=-1).float()


def w_rounded_to_x_dtype(x, w):
    # A kernel that multiplies in x's 16-bit dtype: w rounded to bfloat16 before the products
    # (the harness calls this on float64 copies, so the rounding is spelled out).
    return (x * w.to(torch.bfloat16).to(x.dtype)).sum(dim=-1)


def mean(x, w):
    return (x * w).mean(dim=-1)
