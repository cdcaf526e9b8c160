"""Known-wrong variants of the CSR sparse matrix-vector product."""

import torch


def row_shifted(crow, col, val, x):
    # Each row's range read as [crow[i] + 1, crow[i + 1] + 1) (an off-by-one on the offsets).
    nnz = col.shape[0]
    prod = val * x[col.long()]
    cs = torch.cat((prod.new_zeros(1), prod.cumsum(0)))
    return cs[(crow[1:].long() + 1).clamp(max=nnz)] - cs[(crow[:-1].long() + 1).clamp(max=nnz)]


def values_ignored(crow, col, val, x):
    # The pattern used as a 0/1 adjacency matrix (the stored values not multiplied in).
    prod = x[col.long()]
    cs = torch.cat((prod.new_zeros(1), prod.cumsum(0)))
    return cs[crow[1:].long()] - cs[crow[:-1].long()]
