"""EmbeddingBag (sum, per-sample weights) by scattering: zero a float32 buffer, record each
index's bag, add every weighted row into its bag's row with float32 atomics, then convert to
the table's dtype."""

import torch
import triton
import triton.language as tl


@triton.jit
def _zero_kernel(buf_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(buf_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


@triton.jit
def _bag_ids_kernel(offsets_ptr, bag_ptr, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    start = tl.load(offsets_ptr + b)
    end = tl.load(offsets_ptr + b + 1)
    for i in range(start, end, BLOCK):
        idx = i + tl.arange(0, BLOCK)
        tl.store(bag_ptr + idx, tl.full((BLOCK,), b, dtype=tl.int32), mask=idx < end)


@triton.jit
def _scatter_kernel(w_ptr, idx_ptr, bag_ptr, psw_ptr, buf_ptr, D, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    m = cols < D
    row = tl.load(idx_ptr + i).to(tl.int64)
    bag = tl.load(bag_ptr + i).to(tl.int64)
    s = tl.load(psw_ptr + i).to(tl.float32)
    v = tl.load(w_ptr + row * D + cols, mask=m, other=0.0).to(tl.float32)
    tl.atomic_add(buf_ptr + bag * D + cols, v * s, mask=m)


@triton.jit
def _convert_kernel(buf_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(buf_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=m)


def forward(weight, indices, offsets, per_sample_weights) -> torch.Tensor:
    D = weight.shape[1]
    N = indices.shape[0]
    B = offsets.shape[0] - 1
    n = B * D
    buf = torch.empty((B, D), device=weight.device, dtype=torch.float32)
    bag = torch.empty((N,), device=weight.device, dtype=torch.int32)
    out = torch.empty((B, D), device=weight.device, dtype=weight.dtype)
    _zero_kernel[(triton.cdiv(n, 1024),)](buf, n, BLOCK=1024)
    _bag_ids_kernel[(B,)](offsets, bag, BLOCK=256)
    BLOCK_D = 128
    _scatter_kernel[(N, triton.cdiv(D, BLOCK_D))](weight, indices, bag, per_sample_weights, buf,
                                                  D, BLOCK_D=BLOCK_D)
    _convert_kernel[(triton.cdiv(n, 1024),)](buf, out, n, BLOCK=1024)
    return out
