"""MoE gating with BLOCK_T tokens per program.

Faster than the baseline because a program handles a BLOCK_T x E tile (row reductions along
axis 1) instead of a single row of E values: with E = 64..256 a one-row program moves under
1 KB and does k dependent reductions on a handful of warps, so the baseline is bound by launch
and latency rather than bandwidth. The softmax is also never normalized before selection (the
top-k of exp(x - max) is the top-k of the probabilities, and the renormalized weights do not
depend on the softmax denominator), which removes a reduction and a division per element.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _topk_gating_kernel(x_ptr, w_ptr, id_ptr, T, E, K: tl.constexpr, BLOCK_T: tl.constexpr,
                        BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_T + tl.arange(0, BLOCK_T)
    r_mask = rows < T
    offs = tl.arange(0, BLOCK_E)
    mask = r_mask[:, None] & (offs[None, :] < E)
    x = tl.load(x_ptr + rows[:, None] * E + offs[None, :], mask=mask, other=float("-inf"))
    x_max = tl.max(x, axis=1)
    p = tl.where(mask, tl.exp(x - x_max[:, None]), -1.0)
    offs_k = tl.arange(0, BLOCK_K)
    ws = tl.zeros((BLOCK_T, BLOCK_K), dtype=tl.float32)
    ids = tl.zeros((BLOCK_T, BLOCK_K), dtype=tl.int32)
    for j in tl.static_range(K):
        i = tl.argmax(p, axis=1)
        sel = offs_k[None, :] == j
        ws = tl.where(sel, tl.max(p, axis=1)[:, None], ws)
        ids = tl.where(sel, i.to(tl.int32)[:, None], ids)
        p = tl.where(offs[None, :] == i[:, None], -1.0, p)
    out_mask = r_mask[:, None] & (offs_k[None, :] < K)
    out = rows[:, None] * K + offs_k[None, :]
    tl.store(w_ptr + out, ws / tl.sum(ws, axis=1)[:, None], mask=out_mask)
    tl.store(id_ptr + out, ids, mask=out_mask)


def forward(logits: torch.Tensor, k: int):
    T, E = logits.shape
    weights = torch.empty((T, k), device=logits.device, dtype=torch.float32)
    ids = torch.empty((T, k), device=logits.device, dtype=torch.int32)
    BLOCK_E = triton.next_power_of_2(E)
    BLOCK_T = max(2, min(64, 4096 // BLOCK_E))
    _topk_gating_kernel[(triton.cdiv(T, BLOCK_T),)](
        logits, weights, ids, T, E, K=k, BLOCK_T=BLOCK_T, BLOCK_E=BLOCK_E,
        BLOCK_K=max(2, triton.next_power_of_2(k)), num_warps=4,
    )
    return (weights, ids)
