"""Reference and inputs for single-query (decode) attention over a paged KV cache, GQA."""

import math

import torch

BLOCK_SIZE = 16


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    B, G, Hkv, D, L = config["B"], config["G"], config["Hkv"], config["D"], config["L"]
    Hq = G * Hkv
    MB = (L + BLOCK_SIZE - 1) // BLOCK_SIZE
    NB = B * MB
    q = torch.randn(B, Hq, D, generator=gen, device=device).mul_(1.5)
    k_cache = torch.randn(NB, BLOCK_SIZE, Hkv, D, generator=gen, device=device)
    v_cache = torch.randn(NB, BLOCK_SIZE, Hkv, D, generator=gen, device=device)
    # Every sequence owns MB blocks scattered over the cache (a random permutation); contexts
    # run from half of L to L, mostly ending inside a block whose later slots hold stale
    # tokens that must not be attended to.
    block_tables = torch.randperm(NB, generator=gen, device=device).view(B, MB).to(torch.int32)
    lo = max(1, L // 2)
    context_lens = torch.randint(lo, L + 1, (B,), generator=gen, device=device).to(torch.int32)
    return (q.to(dtype), k_cache.to(dtype), v_cache.to(dtype), block_tables, context_lens)


def reference(q, k_cache, v_cache, block_tables, context_lens):
    acc = torch.float64 if q.dtype == torch.float64 else torch.float32
    B, Hq, D = q.shape
    Hkv = k_cache.shape[2]
    out = torch.empty(B, Hq, D, dtype=acc, device=q.device)
    scale = 1.0 / math.sqrt(D)
    for b in range(B):
        n = int(context_lens[b])
        blocks = block_tables[b, : (n + BLOCK_SIZE - 1) // BLOCK_SIZE].long()
        k = k_cache[blocks].reshape(-1, Hkv, D)[:n].to(acc)
        v = v_cache[blocks].reshape(-1, Hkv, D)[:n].to(acc)
        k = k.repeat_interleave(Hq // Hkv, dim=1)  # n x Hq x D
        v = v.repeat_interleave(Hq // Hkv, dim=1)
        scores = torch.einsum("hd,nhd->hn", q[b].to(acc), k) * scale
        p = torch.softmax(scores, dim=-1)
        out[b] = torch.einsum("hn,nhd->hd", p, v)
    return out.to(q.dtype)


def exercised(config: dict, *inputs) -> dict:
    """The description's rules, seen in this configuration (`aka tasks check`)."""
    lens = inputs[4]
    return {
        "grouped-query heads": config["G"] > 1,
        "context ending inside a block": bool((lens % BLOCK_SIZE != 0).any()),
    }
