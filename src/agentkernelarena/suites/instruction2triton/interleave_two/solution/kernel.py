"""instruction2triton/interleave_two: one pass that writes each output tile contiguously.

A program owns a BLOCK_M x BLOCK_O tile of the M x 2N output. Output column o takes a[:, o // 2]
when o is even and b[:, o // 2] when it is odd: two masked loads (each warp's addresses fall in
one contiguous span of a or b), a select, and one full-width contiguous store, so the output
is written once, whole sectors at a time.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _interleave(a_ptr, b_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_O: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    o = tl.program_id(1) * BLOCK_O + tl.arange(0, BLOCK_O)
    mask = (rows[:, None] < M) & (o[None, :] < 2 * N)
    row64 = rows[:, None].to(tl.int64)
    src = row64 * N + (o // 2)[None, :]
    even = (o % 2 == 0)[None, :]
    va = tl.load(a_ptr + src, mask=mask & even)
    vb = tl.load(b_ptr + src, mask=mask & ~even)
    tl.store(out_ptr + row64 * (2 * N) + o[None, :], tl.where(even, va, vb), mask=mask)


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = a.shape
    out = torch.empty(M, 2 * N, device=a.device, dtype=a.dtype)
    BLOCK_O = min(2048, triton.next_power_of_2(2 * N))
    BLOCK_M = max(1, min(4096 // BLOCK_O, triton.next_power_of_2(M)))
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(2 * N, BLOCK_O))
    _interleave[grid](a, b, out, M, N, BLOCK_M=BLOCK_M, BLOCK_O=BLOCK_O, num_warps=8)
    return out
