"""torch2triton/group_topk_softmax: MoE routing (softmax, top-k, renormalize), fused.

Each program routes a block of tokens held as one [BLOCK_T, BLOCK_E] register tile: softmax
along the experts, k rounds of row-wise arg-max that collect the picks in [BLOCK_T, BLOCK_K]
registers, then one renormalized store of the weights and the ids. k is a compile-time
constant.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _route_kernel(x_ptr, w_ptr, ids_ptr, T, E, K: tl.constexpr, BLOCK_T: tl.constexpr,
                  BLOCK_E: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0).to(tl.int64) * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, BLOCK_E)
    rmask = rows < T
    valid = rmask[:, None] & (cols[None, :] < E)
    x = tl.load(x_ptr + rows[:, None] * E + cols[None, :], mask=valid,
                other=float("-inf")).to(tl.float32)
    row_max = tl.where(rmask, tl.max(x, axis=1), 0.0)
    e = tl.exp(x - row_max[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    p = tl.where(cols[None, :] < E, p, -1.0)
    ks = tl.arange(0, BLOCK_K)
    picked = tl.zeros((BLOCK_T, BLOCK_K), dtype=tl.float32)
    chosen = tl.zeros((BLOCK_T, BLOCK_K), dtype=tl.int32)
    for i in tl.static_range(K):
        best = tl.max(p, axis=1)
        idx = tl.min(tl.where(p == best[:, None], cols[None, :], BLOCK_E), axis=1)
        picked = tl.where(ks[None, :] == i, best[:, None], picked)
        chosen = tl.where(ks[None, :] == i, idx[:, None], chosen)
        p = tl.where(cols[None, :] == idx[:, None], -1.0, p)
    w = picked / tl.sum(picked, axis=1)[:, None]
    out_mask = rmask[:, None] & (ks[None, :] < K)
    offs = rows[:, None] * K + ks[None, :]
    tl.store(w_ptr + offs, w.to(w_ptr.dtype.element_ty), mask=out_mask)
    tl.store(ids_ptr + offs, chosen.to(tl.int64), mask=out_mask)


def forward(router_logits: torch.Tensor, top_k: int) -> tuple:
    T, E = router_logits.shape
    dev = router_logits.device
    weights = torch.empty((T, top_k), device=dev, dtype=router_logits.dtype)
    ids = torch.empty((T, top_k), device=dev, dtype=torch.int64)
    block_e = triton.next_power_of_2(E)
    block_t = max(1, min(64, 2048 // block_e))
    _route_kernel[(triton.cdiv(T, block_t),)](router_logits, weights, ids, T, E, K=top_k,
                                              BLOCK_T=block_t, BLOCK_E=block_e,
                                              BLOCK_K=triton.next_power_of_2(top_k),
                                              num_warps=4)
    return (weights, ids)
