"""One Lion step as separate elementwise kernels: the sign of the interpolated momentum into a
float32 buffer, then the decayed parameter update (reading that buffer back), then the momentum
update (reading the momentum and gradient a second time). Everything is updated in place."""

import torch
import triton
import triton.language as tl


@triton.jit
def _sign_kernel(m_ptr, g_ptr, u_ptr, n, beta1, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    m = tl.load(m_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    c = beta1 * m + (1.0 - beta1) * g
    u = tl.where(c > 0, 1.0, tl.where(c < 0, -1.0, 0.0))
    tl.store(u_ptr + offs, u, mask=mask)


@triton.jit
def _param_kernel(p_ptr, u_ptr, n, lr, decay, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    tl.store(p_ptr + offs, p * decay - lr * u, mask=mask)


@triton.jit
def _momentum_kernel(m_ptr, g_ptr, n, beta2, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    m = tl.load(m_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    tl.store(m_ptr + offs, beta2 * m + (1.0 - beta2) * g, mask=mask)


def forward(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    n = param.numel()
    update = torch.empty_like(param)
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    _sign_kernel[grid](exp_avg, grad, update, n, beta1, BLOCK=BLOCK)
    _param_kernel[grid](param, update, n, lr, 1.0 - lr * weight_decay, BLOCK=BLOCK)
    _momentum_kernel[grid](exp_avg, grad, n, beta2, BLOCK=BLOCK)
    return (param, exp_avg)
