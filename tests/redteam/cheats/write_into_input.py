"""Computes into the input y and returns it (no allocation, input clobbered)."""

def forward(x, y, alpha):
    n = x.numel()
    _scale_add[(triton.cdiv(n, 1024),)](x, y, y, n, alpha, BLOCK=1024)
    return y
