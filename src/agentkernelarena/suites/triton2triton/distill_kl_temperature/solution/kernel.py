"""Temperature-scaled distillation KL per row in one pass over both logit rows.

With a = teacher / T and b = student / T, KL = u / S_a - (m_a + log S_a) + (m_b + log S_b),
where m_a, m_b are running row maxima, S_a = sum exp(a - m_a), S_b = sum exp(b - m_b) and
u = sum exp(a - m_a) * (a - b). The maxima are tracked per tile (one rescaling exp per tile); the
per-lane sums are rescaled when they grow and summed at the end. The logits are read once.
"""

import torch
import triton
import triton.language as tl

_NEG = tl.constexpr(-1.0e30)


@triton.jit
def _distill_kl_kernel(t_ptr, s_ptr, out_ptr, V, inv_t, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = row * V
    ma = tl.max(tl.full([BLOCK], _NEG, tl.float32), axis=0)
    mb = ma
    sa = tl.zeros([BLOCK], dtype=tl.float32)
    sb = tl.zeros([BLOCK], dtype=tl.float32)
    u = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        a = tl.load(t_ptr + base + cols, mask=mask, other=0.0).to(tl.float32) * inv_t
        b = tl.load(s_ptr + base + cols, mask=mask, other=0.0).to(tl.float32) * inv_t
        new_ma = tl.maximum(ma, tl.max(tl.where(mask, a, _NEG), axis=0))
        new_mb = tl.maximum(mb, tl.max(tl.where(mask, b, _NEG), axis=0))
        ca = tl.exp(ma - new_ma)
        ea = tl.where(mask, tl.exp(a - new_ma), 0.0)
        eb = tl.where(mask, tl.exp(b - new_mb), 0.0)
        u = u * ca + ea * (a - b)
        sa = sa * ca + ea
        sb = sb * tl.exp(mb - new_mb) + eb
        ma = new_ma
        mb = new_mb
    Sa = tl.sum(sa, axis=0)
    Sb = tl.sum(sb, axis=0)
    kl = tl.sum(u, axis=0) / Sa - (ma - mb) - tl.log(Sa) + tl.log(Sb)
    tl.store(out_ptr + row, kl * scale)


def forward(teacher: torch.Tensor, student: torch.Tensor, T: float) -> torch.Tensor:
    M, V = teacher.shape
    out = torch.empty((M,), device=teacher.device, dtype=torch.float32)
    BLOCK = min(2048, triton.next_power_of_2(V))
    _distill_kl_kernel[(M,)](teacher, student, out, V, 1.0 / T, T * T, BLOCK=BLOCK,
                             num_warps=8 if BLOCK >= 2048 else 4)
    return out
