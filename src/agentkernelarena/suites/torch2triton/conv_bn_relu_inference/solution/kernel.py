"""torch2triton/conv_bn_relu_inference: the convolution as an implicit GEMM on the tensor
cores, with the eval-mode batch norm folded into a per-channel scale and shift and the ReLU
applied in its epilogue: one kernel.

Rows of the GEMM are output pixels (image, row, column flattened), columns output channels, and
the reduction runs over (input channel, filter row, filter column) flattened, BLOCK_K taps at a
time: each step gathers a BLOCK_M x BLOCK_K tile of x (consecutive pixels are consecutive
addresses, the zero padding is a load mask) and the matching BLOCK_K x BLOCK_N slice of the
K x (9C) weight matrix. The accumulator is scaled by gamma / sqrt(var + eps), shifted by
beta - mean * scale, clamped at 0 and stored once in NCHW: x is read once (the 3x3 overlap comes
from cache) and the output written once, where eager writes and re-reads it twice more.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _conv_bn_relu_kernel(x_ptr, w_ptr, g_ptr, b_ptr, mean_ptr, var_ptr, out_ptr,
                         P, C, H, W, K, eps,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    HW = H * W
    R = C * 9
    pix = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    pmask = pix < P
    img = pix // HW
    hw = pix % HW
    h = hw // W
    v = hw % W
    x_base = img.to(tl.int64) * C * HW
    chans = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = chans < K
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_K):
        red = r0 + tl.arange(0, BLOCK_K)
        rmask = red < R
        c = red // 9
        tap = red % 9
        hh = h[:, None] + (tap // 3 - 1)[None, :]
        vv = v[:, None] + (tap % 3 - 1)[None, :]
        inb = (pmask[:, None] & rmask[None, :] & (hh >= 0) & (hh < H) & (vv >= 0) & (vv < W))
        a = tl.load(x_ptr + x_base[:, None] + c[None, :] * HW + hh * W + vv, mask=inb,
                    other=0.0)
        wt = tl.load(w_ptr + chans[None, :] * R + red[:, None],
                     mask=rmask[:, None] & cmask[None, :], other=0.0)
        acc += tl.dot(a, wt)
    g = tl.load(g_ptr + chans, mask=cmask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + chans, mask=cmask, other=0.0).to(tl.float32)
    mu = tl.load(mean_ptr + chans, mask=cmask, other=0.0).to(tl.float32)
    var = tl.load(var_ptr + chans, mask=cmask, other=1.0).to(tl.float32)
    scale = g / tl.sqrt(var + eps)
    shift = b - mu * scale
    y = tl.maximum(acc * scale[None, :] + shift[None, :], 0.0)
    out_offs = (img.to(tl.int64) * K * HW + hw)[:, None] + chans[None, :].to(tl.int64) * HW
    tl.store(out_ptr + out_offs, y.to(out_ptr.dtype.element_ty),
             mask=pmask[:, None] & cmask[None, :])


def forward(x: torch.Tensor, w: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor,
            running_mean: torch.Tensor, running_var: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    K = w.shape[0]
    P = N * H * W
    out = torch.empty((N, K, H, W), device=x.device, dtype=x.dtype)
    BLOCK_N = max(16, min(64, triton.next_power_of_2(K)))
    if x.device.type == "cpu":
        BLOCK_M, BLOCK_K, num_warps, num_stages = 64, 32, 4, 1
    else:
        BLOCK_M, BLOCK_K, num_warps, num_stages = 128, 32, 4, 3
    grid = (triton.cdiv(P, BLOCK_M), triton.cdiv(K, BLOCK_N))
    _conv_bn_relu_kernel[grid](x, w, gamma, beta, running_mean, running_var, out, P, C, H, W,
                               K, EPS, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                               num_warps=num_warps, num_stages=num_stages)
    return out
