"""Known-wrong paged attention variants (same arguments as the reference)."""

import math

import torch

BLOCK_SIZE = 16


def _attend(q, k_cache, v_cache, block_tables, context_lens, full_blocks=False, kv_map=None):
    B, Hq, D = q.shape
    Hkv = k_cache.shape[2]
    out = torch.empty_like(q)
    for b in range(B):
        n = int(context_lens[b])
        nblk = (n + BLOCK_SIZE - 1) // BLOCK_SIZE
        m = nblk * BLOCK_SIZE if full_blocks else n
        blocks = block_tables[b, :nblk].long()
        k = k_cache[blocks].reshape(-1, Hkv, D)[:m]
        v = v_cache[blocks].reshape(-1, Hkv, D)[:m]
        heads = kv_map(Hq, Hkv)
        k, v = k[:, heads], v[:, heads]
        p = torch.softmax(torch.einsum("hd,nhd->hn", q[b], k) / math.sqrt(D), dim=-1)
        out[b] = torch.einsum("hn,nhd->hd", p, v)
    return out


def whole_last_block(q, k_cache, v_cache, block_tables, context_lens):
    """The stale slots after the context's end attended to (the whole last block)."""
    return _attend(q, k_cache, v_cache, block_tables, context_lens, full_blocks=True,
                   kv_map=lambda hq, hkv: torch.arange(hq) // (hq // hkv))


def interleaved_heads(q, k_cache, v_cache, block_tables, context_lens):
    """Query head h read kv head h % Hkv instead of h // (Hq / Hkv)."""
    return _attend(q, k_cache, v_cache, block_tables, context_lens,
                   kv_map=lambda hq, hkv: torch.arange(hq) % hkv)
