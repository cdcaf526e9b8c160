"""torch2triton/group_topk_softmax: MoE routing (softmax, top-k, renormalize), the Triton
starting point.

Simple and correct: one program per token. It computes the softmax over the experts in
registers, picks the k largest one after the other (arg-max, then mask it out), storing each
pick to memory, then reads its k picks back and divides them by their sum.

The entry: forward(*make_inputs(...)) must return what reference.py's reference returns.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _route_kernel(x_ptr, tmp_ptr, w_ptr, ids_ptr, E, K, BLOCK_E: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    t = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_E)
    x = tl.load(x_ptr + t * E + cols, mask=cols < E, other=float("-inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    p = e / tl.sum(e, axis=0)
    p = tl.where(cols < E, p, -1.0)
    for i in range(0, K):
        best = tl.max(p, axis=0)
        idx = tl.min(tl.where(p == best, cols, BLOCK_E), axis=0)
        tl.store(tmp_ptr + t * K + i, best)
        tl.store(ids_ptr + t * K + i, idx.to(tl.int64))
        p = tl.where(cols == idx, -1.0, p)
    ks = tl.arange(0, BLOCK_K)
    picked = tl.load(tmp_ptr + t * K + ks, mask=ks < K, other=0.0)
    w = picked / tl.sum(picked, axis=0)
    tl.store(w_ptr + t * K + ks, w.to(w_ptr.dtype.element_ty), mask=ks < K)


def forward(router_logits: torch.Tensor, top_k: int) -> tuple:
    T, E = router_logits.shape
    dev = router_logits.device
    tmp = torch.empty((T, top_k), device=dev, dtype=torch.float32)
    weights = torch.empty((T, top_k), device=dev, dtype=router_logits.dtype)
    ids = torch.empty((T, top_k), device=dev, dtype=torch.int64)
    _route_kernel[(T,)](router_logits, tmp, weights, ids, E, top_k,
                        BLOCK_E=triton.next_power_of_2(E),
                        BLOCK_K=triton.next_power_of_2(top_k))
    return (weights, ids)
