"""instruction2triton/clip_grad_norm_scale: two launches, no scalar kernels in between.

Kernel 1: P programs, each the sum of squares of one contiguous chunk, into P partials (a
fixed order: deterministic). Kernel 2: the same P chunks, each program first adds up the P
partials itself (a few KB, from L2) to get the norm and the coefficient, then scales its chunk.
Kernel 2 walks the chunks, and the blocks inside each chunk, in reverse: the end of g, read
last by kernel 1, is still in L2 when kernel 2 starts, so part of the second read of g does
not go to HBM.
"""

import torch
import triton
import triton.language as tl

EPS = 1e-6
MAX_PROGRAMS = 1024


@triton.jit
def _sumsq_chunks(g_ptr, part_ptr, n, CHUNK, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid.to(tl.int64) * CHUNK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k in range(0, CHUNK, BLOCK):
        offs = start + k + tl.arange(0, BLOCK)
        v = tl.load(g_ptr + offs, mask=offs < n, other=0.0)
        acc += v * v
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _scale_chunks(g_ptr, part_ptr, out_ptr, n, P, CHUNK, max_norm, eps,
                  BLOCK: tl.constexpr, BLOCK_P: tl.constexpr):
    parts = tl.load(part_ptr + tl.arange(0, BLOCK_P), mask=tl.arange(0, BLOCK_P) < P, other=0.0)
    norm = tl.sqrt(tl.sum(parts, axis=0))
    coef = tl.minimum(max_norm / (norm + eps), 1.0)
    chunk = P - 1 - tl.program_id(0)
    start = chunk.to(tl.int64) * CHUNK
    n_blocks = tl.cdiv(CHUNK, BLOCK)
    for i in range(0, n_blocks):
        offs = start + (n_blocks - 1 - i) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        v = tl.load(g_ptr + offs, mask=mask, other=0.0)
        tl.store(out_ptr + offs, v * coef, mask=mask)


def forward(g: torch.Tensor, max_norm: float) -> torch.Tensor:
    n = g.numel()
    out = torch.empty_like(g)
    BLOCK = 4096
    blocks = triton.cdiv(n, BLOCK)
    P = min(MAX_PROGRAMS, blocks)
    CHUNK = triton.cdiv(blocks, P) * BLOCK
    P = triton.cdiv(n, CHUNK)
    part = torch.empty(P, device=g.device, dtype=torch.float32)
    _sumsq_chunks[(P,)](g, part, n, CHUNK, BLOCK=BLOCK, num_warps=8)
    _scale_chunks[(P,)](g, part, out, n, P, CHUNK, max_norm, EPS, BLOCK=BLOCK,
                        BLOCK_P=triton.next_power_of_2(P), num_warps=8)
    return out
