"""Chunk-local cumsum with one program per (sequence, chunk): each program loads its 64
log-decays, scans them with tl.cumsum and stores them."""

import torch
import triton
import triton.language as tl

CHUNK = 64


@triton.jit
def _chunk_cumsum_kernel(g_ptr, out_ptr, T, CHUNK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    c = tl.program_id(1)
    t = c * CHUNK_SIZE + tl.arange(0, CHUNK_SIZE)
    mask = t < T
    g = tl.load(g_ptr + row * T + t, mask=mask, other=0.0)
    tl.store(out_ptr + row * T + t, tl.cumsum(g, axis=0), mask=mask)


def forward(g: torch.Tensor) -> torch.Tensor:
    B, H, T = g.shape
    out = torch.empty_like(g)
    _chunk_cumsum_kernel[(B * H, triton.cdiv(T, CHUNK))](g, out, T, CHUNK_SIZE=CHUNK)
    return out
