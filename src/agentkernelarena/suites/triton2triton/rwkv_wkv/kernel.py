"""RWKV-4 WKV forward: a direct port of the per-thread CUDA kernel, one program per
(batch, channel) walking the sequence with scalar loads and the stable (a, b, p) state."""

import torch
import triton
import triton.language as tl


@triton.jit
def _wkv_kernel(decay_ptr, first_ptr, k_ptr, v_ptr, y_ptr, T, C):
    b = tl.program_id(0).to(tl.int64)
    c = tl.program_id(1)
    w = -tl.exp(tl.load(decay_ptr + c))
    u = tl.load(first_ptr + c)
    aa = 0.0
    bb = 0.0
    pp = -1.0e38
    base = b * T * C + c
    for t in range(0, T):
        kk = tl.load(k_ptr + base + t * C).to(tl.float32)
        vv = tl.load(v_ptr + base + t * C).to(tl.float32)
        ww = u + kk
        p = tl.maximum(pp, ww)
        e1 = tl.exp(pp - p)
        e2 = tl.exp(ww - p)
        y = (e1 * aa + e2 * vv) / (e1 * bb + e2)
        tl.store(y_ptr + base + t * C, y.to(y_ptr.dtype.element_ty))
        ww = w + pp
        p = tl.maximum(ww, kk)
        e1 = tl.exp(ww - p)
        e2 = tl.exp(kk - p)
        aa = e1 * aa + e2 * vv
        bb = e1 * bb + e2
        pp = p


def forward(time_decay, time_first, k, v) -> torch.Tensor:
    B, T, C = k.shape
    y = torch.empty_like(k)
    _wkv_kernel[(B, C)](time_decay, time_first, k, v, y, T, C, num_warps=1)
    return y
