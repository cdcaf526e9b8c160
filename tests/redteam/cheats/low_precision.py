"""Computes in float16 whatever the input dtype, to halve memory traffic."""

@triton.jit
def _half(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float16)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float16)
    tl.store(out_ptr + offs, (x * alpha + y).to(out_ptr.dtype.element_ty), mask=mask)


def forward(x, y, alpha):
    out = torch.empty_like(x)
    n = x.numel()
    _half[(triton.cdiv(n, 1024),)](x, y, out, n, alpha, BLOCK=1024)
    return out
