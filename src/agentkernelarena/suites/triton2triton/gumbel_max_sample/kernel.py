"""Gumbel-max sampling in two kernels: an elementwise kernel writes the perturbed scores
logits / temperature + noise to a float32 B x V buffer, then one program per row scans the
buffer for its argmax."""

import torch
import triton
import triton.language as tl


@triton.jit
def _score_kernel(logits_ptr, temp_ptr, noise_ptr, score_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    valid = cols < V
    x = tl.load(logits_ptr + row * V + cols, mask=valid, other=0.0)
    g = tl.load(noise_ptr + row * V + cols, mask=valid, other=0.0)
    t = tl.load(temp_ptr + row)
    tl.store(score_ptr + row * V + cols, x / t + g, mask=valid)


@triton.jit
def _argmax_kernel(score_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    best = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    best_idx = tl.zeros((BLOCK,), dtype=tl.int64)
    for v0 in range(0, V, BLOCK):
        cols = v0 + tl.arange(0, BLOCK)
        s = tl.load(score_ptr + row * V + cols, mask=cols < V, other=float("-inf"))
        better = s > best
        best = tl.where(better, s, best)
        best_idx = tl.where(better, cols.to(tl.int64), best_idx)
    m = tl.max(best, axis=0)
    idx = tl.min(tl.where(best == m, best_idx, V), axis=0)
    tl.store(out_ptr + row, idx)


def forward(logits: torch.Tensor, temperature: torch.Tensor, noise: torch.Tensor):
    B, V = logits.shape
    score = torch.empty((B, V), device=logits.device, dtype=torch.float32)
    out = torch.empty((B,), device=logits.device, dtype=torch.int64)
    BLOCK = 1024
    _score_kernel[(B, triton.cdiv(V, BLOCK))](logits, temperature, noise, score, V, BLOCK=BLOCK)
    _argmax_kernel[(B,)](score, out, V, BLOCK=BLOCK)
    return out
