"""One Lion step in a single pass: each element's parameter, gradient and momentum are read
once and the parameter and momentum written once, with no intermediate buffer."""

import triton
import triton.language as tl


@triton.jit
def _lion_kernel(p_ptr, g_ptr, m_ptr, n, lr, beta1, beta2, decay, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    c = beta1 * m + (1.0 - beta1) * g
    u = tl.where(c > 0, 1.0, tl.where(c < 0, -1.0, 0.0))
    tl.store(p_ptr + offs, p * decay - lr * u, mask=mask)
    tl.store(m_ptr + offs, beta2 * m + (1.0 - beta2) * g, mask=mask)


def forward(param, grad, exp_avg, lr, beta1, beta2, weight_decay):
    n = param.numel()
    BLOCK = 2048
    grid = (triton.cdiv(n, BLOCK),)
    _lion_kernel[grid](param, grad, exp_avg, n, lr, beta1, beta2, 1.0 - lr * weight_decay,
                       BLOCK=BLOCK, num_warps=8)
    return (param, exp_avg)
