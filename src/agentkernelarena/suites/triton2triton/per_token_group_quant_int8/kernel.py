"""Per-token-group symmetric int8 quantization (groups of 128 along the last dimension).

scale[r, g] = max(max |x[r, 128g:128g+128]|, 1e-10) / 127 (float32) and
q[r, c] = clamp(round_half_even(x[r, c] / scale[r, c // 128]), -127, 127) as int8, with IEEE
round-to-nearest division. Two kernels: one program per group computes its scale, then a flat
elementwise kernel reads x again, gathers each element's scale and quantizes.
"""

import torch
import triton
import triton.language as tl

GROUP = 128


@triton.jit
def _round_half_even(v):
    r = tl.floor(v)
    d = v - r
    odd = (r - 2.0 * tl.floor(r * 0.5)) == 1.0
    return tl.where((d > 0.5) | ((d == 0.5) & odd), r + 1.0, r)


@triton.jit
def _group_scale_kernel(x_ptr, scale_ptr, GROUP_SIZE: tl.constexpr):
    g = tl.program_id(0).to(tl.int64)
    offs = g * GROUP_SIZE + tl.arange(0, GROUP_SIZE)
    x = tl.load(x_ptr + offs).to(tl.float32)
    amax = tl.maximum(tl.max(tl.abs(x), axis=0), 1e-10)
    tl.store(scale_ptr + g, tl.math.div_rn(amax, 127.0))


@triton.jit
def _quantize_kernel(x_ptr, scale_ptr, q_ptr, n_elements, GROUP_SIZE: tl.constexpr,
                     BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(scale_ptr + offs // GROUP_SIZE, mask=mask, other=1.0)
    q = _round_half_even(tl.math.div_rn(x, s))
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    tl.store(q_ptr + offs, q.to(tl.int8), mask=mask)


def forward(x: torch.Tensor) -> tuple:
    M, N = x.shape
    G = N // GROUP
    q = torch.empty((M, N), device=x.device, dtype=torch.int8)
    scale = torch.empty((M, G), device=x.device, dtype=torch.float32)
    _group_scale_kernel[(M * G,)](x, scale, GROUP_SIZE=GROUP)
    n = M * N
    BLOCK = 1024
    _quantize_kernel[(triton.cdiv(n, BLOCK),)](x, scale, q, n, GROUP_SIZE=GROUP, BLOCK=BLOCK)
    return (q, scale)
