"""Temperature + min-p: one program per row; a max pass, a pass summing the kept
exponentials, and a pass writing the renormalized probabilities."""

import torch
import triton
import triton.language as tl


@triton.jit
def _min_p_kernel(x_ptr, temp_ptr, minp_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    inv_t = 1.0 / tl.load(temp_ptr + row)
    log_min_p = tl.log(tl.load(minp_ptr + row))
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < V, other=float("-inf"))
        m = tl.maximum(m, x * inv_t)
    z_max = tl.max(m, axis=0)
    cut = z_max + log_min_p  # p >= min_p * p_max  <=>  z >= z_max + log(min_p)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        z = tl.load(x_ptr + base + offs, mask=offs < V, other=float("-inf")) * inv_t
        s += tl.where(z >= cut, tl.exp(z - z_max), 0.0)
    inv_sum = 1.0 / tl.sum(s, axis=0)
    for v0 in range(0, V, BLOCK):
        offs = v0 + tl.arange(0, BLOCK)
        mask = offs < V
        z = tl.load(x_ptr + base + offs, mask=mask, other=float("-inf")) * inv_t
        p = tl.where(z >= cut, tl.exp(z - z_max) * inv_sum, 0.0)
        tl.store(out_ptr + base + offs, p, mask=mask)


def forward(logits: torch.Tensor, temperature: torch.Tensor, min_p: torch.Tensor):
    B, V = logits.shape
    out = torch.empty_like(logits)
    _min_p_kernel[(B,)](logits, temperature, min_p, out, V,
                        BLOCK=min(4096, triton.next_power_of_2(V)))
    return out
