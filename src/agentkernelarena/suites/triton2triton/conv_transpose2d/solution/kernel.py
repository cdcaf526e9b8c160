"""Stride-2 transposed convolution split by output parity: the outputs with oy % 2 = py and
ox % 2 = px all use the same 2 x 2 of the 16 taps (ky in {1 - py, 3 - py} reading input rows
j + py and j + py - 1, likewise for x), so each program takes one parity class of one image,
a block of positions of that class (rows of a 2-D tile) and a block of output channels
(columns). Per input channel it loads four shifted input vectors and four weight vectors and
accumulates their outer products: no failed tap tests, and each input value is reused across
the output channels in registers."""

import torch
import triton
import triton.language as tl


@triton.jit
def _conv_t_parity_kernel(x_ptr, w_ptr, b_ptr, out_ptr, Cin, Cout, H, W,
                          BLOCK_P: tl.constexpr, BLOCK_CO: tl.constexpr):
    pid_p = tl.program_id(0)
    nq = tl.program_id(1)
    n = (nq // 4).to(tl.int64)
    py = (nq // 2) % 2
    px = nq % 2
    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_co = tl.program_id(2) * BLOCK_CO + tl.arange(0, BLOCK_CO)
    pmask = offs_p < H * W
    cmask = offs_co < Cout
    j = offs_p // W
    i = offs_p % W
    ya = j + py
    yb = j + py - 1
    xa = i + px
    xb = i + px - 1
    vya = ya < H
    vyb = yb >= 0
    vxa = xa < W
    vxb = xb >= 0
    m_aa = pmask & vya & vxa
    m_ab = pmask & vya & vxb
    m_ba = pmask & vyb & vxa
    m_bb = pmask & vyb & vxb
    o_aa = ya * W + xa
    o_ab = ya * W + xb
    o_ba = yb * W + xa
    o_bb = yb * W + xb
    kya = 1 - py
    kxa = 1 - px
    t_aa = kya * 4 + kxa
    t_ab = kya * 4 + kxa + 2
    t_ba = (kya + 2) * 4 + kxa
    t_bb = (kya + 2) * 4 + kxa + 2
    acc = tl.zeros((BLOCK_P, BLOCK_CO), dtype=tl.float32)
    HW = H * W
    for ci in range(Cin):
        plane = x_ptr + (n * Cin + ci) * HW
        wrow = w_ptr + (ci * Cout + offs_co) * 16
        x_aa = tl.load(plane + o_aa, mask=m_aa, other=0.0).to(tl.float32)
        x_ab = tl.load(plane + o_ab, mask=m_ab, other=0.0).to(tl.float32)
        x_ba = tl.load(plane + o_ba, mask=m_ba, other=0.0).to(tl.float32)
        x_bb = tl.load(plane + o_bb, mask=m_bb, other=0.0).to(tl.float32)
        w_aa = tl.load(wrow + t_aa, mask=cmask, other=0.0).to(tl.float32)
        w_ab = tl.load(wrow + t_ab, mask=cmask, other=0.0).to(tl.float32)
        w_ba = tl.load(wrow + t_ba, mask=cmask, other=0.0).to(tl.float32)
        w_bb = tl.load(wrow + t_bb, mask=cmask, other=0.0).to(tl.float32)
        acc += x_aa[:, None] * w_aa[None, :] + x_ab[:, None] * w_ab[None, :]
        acc += x_ba[:, None] * w_ba[None, :] + x_bb[:, None] * w_bb[None, :]
    acc += tl.load(b_ptr + offs_co, mask=cmask, other=0.0).to(tl.float32)[None, :]
    Wo = 2 * W
    pos = (2 * j + py) * Wo + (2 * i + px)
    dst = out_ptr + (n * Cout + offs_co[None, :]) * (4 * HW) + pos[:, None]
    tl.store(dst, acc.to(out_ptr.dtype.element_ty), mask=pmask[:, None] & cmask[None, :])


def forward(x: torch.Tensor, w: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    N, Cin, H, W = x.shape
    Cout = w.shape[1]
    out = torch.empty((N, Cout, 2 * H, 2 * W), device=x.device, dtype=x.dtype)
    BLOCK_CO = min(32, max(2, triton.next_power_of_2(Cout)))
    BLOCK_P = max(32, 2048 // BLOCK_CO)
    grid = (triton.cdiv(H * W, BLOCK_P), N * 4, triton.cdiv(Cout, BLOCK_CO))
    _conv_t_parity_kernel[grid](x, w, bias, out, Cin, Cout, H, W, BLOCK_P=BLOCK_P,
                                BLOCK_CO=BLOCK_CO, num_warps=4)
    return out
