"""Per-head q/k RMSNorm then NeoX RoPE, unfused: for each of q and k, a norm kernel writes the
normalized heads to a float32 buffer and a RoPE kernel reads them back, one program per
(token, head) row in both (four launches)."""

import torch
import triton
import triton.language as tl


@triton.jit
def _rmsnorm_kernel(x_ptr, w_ptr, y_ptr, D, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # token * H + head
    offs = tl.arange(0, BLOCK_D)
    mask = offs < D
    x = tl.load(x_ptr + row * D + offs, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / D + eps)
    tl.store(y_ptr + row * D + offs, x * rstd * w, mask=mask)


@triton.jit
def _rope_kernel(y_ptr, cs_ptr, pos_ptr, out_ptr, H, HALF: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    token = row // H
    pos = tl.load(pos_ptr + token)
    offs = tl.arange(0, HALF)
    cos = tl.load(cs_ptr + pos * (2 * HALF) + offs)
    sin = tl.load(cs_ptr + pos * (2 * HALF) + HALF + offs)
    base = row * (2 * HALF)
    y1 = tl.load(y_ptr + base + offs)
    y2 = tl.load(y_ptr + base + HALF + offs)
    tl.store(out_ptr + base + offs, (y1 * cos - y2 * sin).to(out_ptr.dtype.element_ty))
    tl.store(out_ptr + base + HALF + offs, (y2 * cos + y1 * sin).to(out_ptr.dtype.element_ty))


def forward(q, k, q_weight, k_weight, cos_sin, positions):
    T, HQ, D = q.shape
    outs = []
    for x, w in ((q, q_weight), (k, k_weight)):
        H = x.shape[1]
        y = torch.empty(x.shape, device=x.device, dtype=torch.float32)
        out = torch.empty_like(x)
        _rmsnorm_kernel[(T * H,)](x, w, y, D, 1e-6, BLOCK_D=triton.next_power_of_2(D))
        _rope_kernel[(T * H,)](y, cos_sin, positions, out, H, HALF=D // 2)
        outs.append(out)
    return (outs[0], outs[1])
