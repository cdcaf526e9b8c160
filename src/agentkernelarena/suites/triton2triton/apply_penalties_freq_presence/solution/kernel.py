"""Frequency and presence penalties fused into one elementwise pass: logits and counts read
once, the output written once, no float32 intermediate."""

import torch
import triton
import triton.language as tl


@triton.jit
def _penalties_kernel(x_ptr, cnt_ptr, freq_ptr, pres_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < V
    x = tl.load(x_ptr + row * V + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cnt_ptr + row * V + cols, mask=mask, other=0)
    f = tl.load(freq_ptr + row)
    p = tl.load(pres_ptr + row)
    y = x - f * c.to(tl.float32)
    y = tl.where(c > 0, y - p, y)
    tl.store(out_ptr + row * V + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def forward(logits, counts, frequency, presence):
    B, V = logits.shape
    out = torch.empty_like(logits)
    BLOCK = 1024 if logits.device.type == "cpu" else 4096
    _penalties_kernel[(B, triton.cdiv(V, BLOCK))](logits, counts, frequency, presence, out, V,
                                                  BLOCK=BLOCK, num_warps=8)
    return out
