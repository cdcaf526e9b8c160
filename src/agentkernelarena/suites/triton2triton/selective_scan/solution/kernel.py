"""Selective scan with BLOCK_D channels per program.

Faster than the baseline because each time step is handled for BLOCK_D neighbouring channels at
once: x and delta are loaded as contiguous BLOCK_D-element vectors (coalesced, instead of one
scalar load per program per step), the B and C rows of the step are loaded once and shared by
all BLOCK_D channels (the baseline reloads them in every one of the D programs), and the state
is a BLOCK_D x N tile, so every step issues enough independent work to hide memory latency
instead of one dependent scalar chain per program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _scan_kernel(x_ptr, dt_ptr, a_ptr, b_ptr, c_ptr, dskip_ptr, y_ptr, L, D,
                 N: tl.constexpr, BLOCK_D: tl.constexpr):
    b = tl.program_id(0).to(tl.int64)
    offs_d = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    d_mask = offs_d < D
    offs_n = tl.arange(0, N)
    a = tl.load(a_ptr + offs_d[:, None] * N + offs_n[None, :], mask=d_mask[:, None], other=0.0)
    a = a * 1.4426950408889634  # exp(dt * a) == exp2(dt * a * log2(e))
    dskip = tl.load(dskip_ptr + offs_d, mask=d_mask, other=0.0)
    h = tl.zeros((BLOCK_D, N), dtype=tl.float32)
    xd_off = b * L * D + offs_d
    bc_off = b * L * N + offs_n
    for _t in range(0, L):
        x = tl.load(x_ptr + xd_off, mask=d_mask, other=0.0).to(tl.float32)
        dt = tl.load(dt_ptr + xd_off, mask=d_mask, other=0.0).to(tl.float32)
        bn = tl.load(b_ptr + bc_off).to(tl.float32)
        cn = tl.load(c_ptr + bc_off).to(tl.float32)
        h = tl.exp2(dt[:, None] * a) * h + (dt * x)[:, None] * bn[None, :]
        y = tl.sum(h * cn[None, :], axis=1) + dskip * x
        tl.store(y_ptr + xd_off, y.to(y_ptr.dtype.element_ty), mask=d_mask)
        xd_off += D
        bc_off += N


def forward(x, delta, A, Bm, Cm, Dskip):
    Bsz, L, D = x.shape
    N = A.shape[1]
    y = torch.empty_like(x)
    if x.device.type == "cpu":
        BLOCK_D = 16
    else:
        # Each program is one dependent chain over L steps: keep enough programs in flight to
        # hide its latency (a few per SM) before widening the tile (B=1, D=4096 at BLOCK_D=32
        # left 128 programs for 132 SMs, slower than the baseline's 4096 one-warp programs).
        BLOCK_D = next((b for b in (32, 16, 8) if Bsz * triton.cdiv(D, b) >= 384), 4)
        if Bsz * D <= 4096:  # one sequence: 512 programs of 8 channels tied the baseline
            BLOCK_D = 4
    num_warps = max(1, BLOCK_D * N // 128)
    _scan_kernel[(Bsz, triton.cdiv(D, BLOCK_D))](x, delta, A, Bm, Cm, Dskip, y, L, D, N=N,
                                                 BLOCK_D=BLOCK_D, num_warps=num_warps)
    return y
