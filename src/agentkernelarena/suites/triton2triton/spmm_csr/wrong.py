"""Known-wrong variants of the CSR times dense product."""

import torch


def _spmm(crow, col, val, B):
    prod = val[:, None] * B[col.long()]
    cs = torch.cat((prod.new_zeros(1, B.shape[1]), prod.cumsum(0)))
    return cs[crow[1:].long()] - cs[crow[:-1].long()]


def row_shifted(crow, col, val, B):
    # Each row's range read as [crow[i] + 1, crow[i + 1] + 1) (an off-by-one on the offsets).
    nnz = col.shape[0]
    lo = (crow[:-1].long() + 1).clamp(max=nnz)
    hi = (crow[1:].long() + 1).clamp(max=nnz)
    prod = val[:, None] * B[col.long()]
    cs = torch.cat((prod.new_zeros(1, B.shape[1]), prod.cumsum(0)))
    return cs[hi] - cs[lo]


def values_ignored(crow, col, val, B):
    # The pattern used as a 0/1 adjacency matrix (the stored values not multiplied in).
    return _spmm(crow, col, torch.ones_like(val), B)
