"""torch2triton/conv_bn_relu_inference: relu(batch_norm_eval(conv3x3(x))), the Triton starting
point.

Simple and correct, in three kernels like the eager operator: a direct convolution (one program
per image, block of 16 output channels and block of pixels, an outer product per tap and input
channel on the CUDA cores) writes a float32 temporary; a batch-norm kernel normalizes it with
the running statistics into a second temporary in the input dtype; a ReLU kernel writes the
output.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-5


@triton.jit
def _conv3x3_kernel(x_ptr, w_ptr, y_ptr, C, H, W, K, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_p = tl.program_id(0)
    ks = tl.program_id(1) * BLOCK_K + tl.arange(0, BLOCK_K)
    n = tl.program_id(2).to(tl.int64)
    kmask = ks < K
    HW = H * W
    offs = pid_p * BLOCK + tl.arange(0, BLOCK)
    pmask = offs < HW
    h = offs // W
    v = offs % W
    acc = tl.zeros((BLOCK_K, BLOCK), dtype=tl.float32)
    for c in range(0, C):
        x_base = x_ptr + (n * C + c) * HW
        for r in range(0, 3):
            for s in range(0, 3):
                hh = h + r - 1
                vv = v + s - 1
                inb = pmask & (hh >= 0) & (hh < H) & (vv >= 0) & (vv < W)
                xv = tl.load(x_base + hh * W + vv, mask=inb, other=0.0).to(tl.float32)
                wv = tl.load(w_ptr + ((ks * C + c) * 3 + r) * 3 + s, mask=kmask,
                             other=0.0).to(tl.float32)
                acc += wv[:, None] * xv[None, :]
    out = y_ptr + (n * K + ks[:, None]) * HW + offs[None, :]
    tl.store(out, acc, mask=kmask[:, None] & pmask[None, :])


@triton.jit
def _batch_norm_kernel(y_ptr, g_ptr, b_ptr, mean_ptr, var_ptr, z_ptr, n_elements, K, HW, eps,
                       BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    ch = (offs // HW) % K
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    g = tl.load(g_ptr + ch, mask=mask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + ch, mask=mask, other=0.0).to(tl.float32)
    mu = tl.load(mean_ptr + ch, mask=mask, other=0.0).to(tl.float32)
    var = tl.load(var_ptr + ch, mask=mask, other=1.0).to(tl.float32)
    z = (y - mu) / tl.sqrt(var + eps) * g + b
    tl.store(z_ptr + offs, z.to(z_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _relu_kernel(z_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    z = tl.load(z_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(z, 0.0), mask=mask)


def forward(x: torch.Tensor, w: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor,
            running_mean: torch.Tensor, running_var: torch.Tensor) -> torch.Tensor:
    N, C, H, W = x.shape
    K = w.shape[0]
    HW = H * W
    y = torch.empty((N, K, H, W), device=x.device, dtype=torch.float32)
    z = torch.empty((N, K, H, W), device=x.device, dtype=x.dtype)
    out = torch.empty((N, K, H, W), device=x.device, dtype=x.dtype)
    BLOCK = 256
    BLOCK_K = 16
    _conv3x3_kernel[(triton.cdiv(HW, BLOCK), triton.cdiv(K, BLOCK_K), N)](
        x, w, y, C, H, W, K, BLOCK=BLOCK, BLOCK_K=BLOCK_K)
    n = N * K * HW
    _batch_norm_kernel[(triton.cdiv(n, 1024),)](y, gamma, beta, running_mean, running_var, z, n,
                                                K, HW, EPS, BLOCK=1024)
    _relu_kernel[(triton.cdiv(n, 1024),)](z, out, n, BLOCK=1024)
    return out
