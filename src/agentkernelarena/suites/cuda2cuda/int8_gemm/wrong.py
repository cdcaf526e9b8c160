"""Known-wrong variants of the scaled int8 matrix product (same arguments as the reference)."""

import torch


def unsigned_bytes(a, b, scale_a, scale_b):
    # The bytes read as uint8 (no sign extension).
    ua = a.to(torch.int32).remainder(256).double()
    ub = b.to(torch.int32).remainder(256).double()
    return (ua @ ub).to(scale_a.dtype) * scale_a[:, None] * scale_b[None, :]


def int16_accumulator(a, b, scale_a, scale_b):
    # Sums wrapped to 16 bits.
    c = (a.double() @ b.double()).to(torch.int64)
    c = (c + 32768) % 65536 - 32768
    return c.to(scale_a.dtype) * scale_a[:, None] * scale_b[None, :]


def scales_swapped(a, b, scale_a, scale_b):
    # The column scales applied by row index and the row scales by column (square-safe: the
    # vectors are cycled to the needed length).
    M, N = a.shape[0], b.shape[1]
    sa = scale_b[torch.arange(M) % N]
    sb = scale_a[torch.arange(N) % M]
    return (a.double() @ b.double()).to(scale_a.dtype) * sa[:, None] * sb[None, :]
