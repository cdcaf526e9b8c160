"""One AdamW step as separate elementwise kernels, one per update: weight decay on the
parameters, the first moment, the second moment, then the parameter update (which reads the
parameters and both moments back). Everything is updated in place."""

import math

import triton
import triton.language as tl


@triton.jit
def _decay_kernel(p_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    tl.store(p_ptr + offs, p * factor, mask=mask)


@triton.jit
def _first_moment_kernel(m_ptr, g_ptr, n, beta1, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    m = tl.load(m_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    tl.store(m_ptr + offs, beta1 * m + (1.0 - beta1) * g, mask=mask)


@triton.jit
def _second_moment_kernel(v_ptr, g_ptr, n, beta2, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(v_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    tl.store(v_ptr + offs, beta2 * v + (1.0 - beta2) * g * g, mask=mask)


@triton.jit
def _update_kernel(p_ptr, m_ptr, v_ptr, n, step_size, inv_sqrt_bias2, eps, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    denom = tl.sqrt(v) * inv_sqrt_bias2 + eps
    tl.store(p_ptr + offs, p - step_size * m / denom, mask=mask)


def forward(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step):
    n = param.numel()
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    step_size = lr / (1.0 - beta1 ** step)
    inv_sqrt_bias2 = 1.0 / math.sqrt(1.0 - beta2 ** step)
    _decay_kernel[grid](param, n, 1.0 - lr * weight_decay, BLOCK=BLOCK)
    _first_moment_kernel[grid](exp_avg, grad, n, beta1, BLOCK=BLOCK)
    _second_moment_kernel[grid](exp_avg_sq, grad, n, beta2, BLOCK=BLOCK)
    _update_kernel[grid](param, exp_avg, exp_avg_sq, n, step_size, inv_sqrt_bias2, eps,
                         BLOCK=BLOCK)
    return (param, exp_avg, exp_avg_sq)
