"""Known-wrong variants of the CSR matrix-vector product (same arguments as the reference)."""

import torch


def row_end_inclusive(row_ptr, col_idx, values, x):
    # Each row also takes the first entry of the next row (an off-by-one loop bound).
    M, nnz = row_ptr.shape[0] - 1, values.shape[0]
    prod = values * x[col_idx.long()]
    y = torch.zeros(M, dtype=values.dtype)
    for m in range(M):
        lo, hi = int(row_ptr[m]), min(int(row_ptr[m + 1]) + 1, nnz)
        y[m] = prod[lo:hi].sum()
    return y


def row_capped_at_32(row_ptr, col_idx, values, x):
    # Only the first 32 entries of a row (one pass of a 32-lane warp, no loop).
    M = row_ptr.shape[0] - 1
    prod = values * x[col_idx.long()]
    y = torch.zeros(M, dtype=values.dtype)
    for m in range(M):
        lo, hi = int(row_ptr[m]), int(row_ptr[m + 1])
        y[m] = prod[lo:min(hi, lo + 32)].sum()
    return y
