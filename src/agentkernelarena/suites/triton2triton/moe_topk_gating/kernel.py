"""MoE gating: one program per token: softmax over the experts, then k rounds of argmax."""

import torch
import triton
import triton.language as tl


@triton.jit
def _topk_gating_kernel(x_ptr, w_ptr, id_ptr, E, K: tl.constexpr, BLOCK_E: tl.constexpr,
                        BLOCK_K: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_E)
    mask = offs < E
    x = tl.load(x_ptr + row * E + offs, mask=mask, other=float("-inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    p = tl.where(mask, e / tl.sum(e, axis=0), -1.0)
    offs_k = tl.arange(0, BLOCK_K)
    ws = tl.zeros((BLOCK_K,), dtype=tl.float32)
    ids = tl.zeros((BLOCK_K,), dtype=tl.int32)
    for j in tl.static_range(K):
        i = tl.argmax(p, axis=0)
        ws = tl.where(offs_k == j, tl.max(p, axis=0), ws)
        ids = tl.where(offs_k == j, i.to(tl.int32), ids)
        p = tl.where(offs == i, -1.0, p)
    k_mask = offs_k < K
    tl.store(w_ptr + row * K + offs_k, ws / tl.sum(ws, axis=0), mask=k_mask)
    tl.store(id_ptr + row * K + offs_k, ids, mask=k_mask)


def forward(logits: torch.Tensor, k: int):
    T, E = logits.shape
    weights = torch.empty((T, k), device=logits.device, dtype=torch.float32)
    ids = torch.empty((T, k), device=logits.device, dtype=torch.int32)
    _topk_gating_kernel[(T,)](logits, weights, ids, E, K=k, BLOCK_E=triton.next_power_of_2(E),
                              BLOCK_K=max(2, triton.next_power_of_2(k)))
    return (weights, ids)
