"""GQA repeat_kv with tiled copies.

Faster than the baseline because every program loads one contiguous tile of a kv head (BLOCK
elements of its S x D plane, wide vector loads) once and stores it to the REP output heads
that share it: kv is read once instead of REP times, and there is no per-element 64-bit
division or modulo, only a per-program base offset.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _repeat_kv_kernel(kv_ptr, out_ptr, SD, REP: tl.constexpr, BLOCK: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)  # b * HKV + h
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < SD
    v = tl.load(kv_ptr + bh * SD + offs, mask=mask)
    out_base = out_ptr + bh * REP * SD
    for r in tl.static_range(REP):
        tl.store(out_base + r * SD + offs, v, mask=mask)


def forward(kv: torch.Tensor, rep: int) -> torch.Tensor:
    B, HKV, S, D = kv.shape
    out = torch.empty((B, HKV * rep, S, D), device=kv.device, dtype=kv.dtype)
    SD = S * D
    BLOCK = min(4096, triton.next_power_of_2(SD))
    _repeat_kv_kernel[(B * HKV, triton.cdiv(SD, BLOCK))](kv, out, SD, REP=rep, BLOCK=BLOCK,
                                                          num_warps=8 if BLOCK >= 2048 else 4)
    return out
