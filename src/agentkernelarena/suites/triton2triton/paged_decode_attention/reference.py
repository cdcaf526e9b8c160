"""Reference and inputs for single-query (decode) attention over a paged KV cache."""

import torch


def seq_lens_for(B: int, L: int) -> list[int]:
    """Ragged lengths from L down to about L / 2, one sequence of length 1 when B >= 4.

    Fixed by the configuration (not the seed) so that every seed costs the same work; the bytes
    formula in task.yaml is a lower bound over these lengths.
    """
    lens = [L - (b * (L // 2)) // max(B - 1, 1) for b in range(B)]
    if B >= 4:
        lens[1] = 1
    return lens


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    B, HQ, HKV, D, L, P = (config[k] for k in ("B", "HQ", "HKV", "D", "L", "PAGE"))
    gen = torch.Generator(device=device).manual_seed(seed)
    lens = seq_lens_for(B, L)
    pages = [-(-n // P) for n in lens]
    max_pages = -(-L // P)
    num_blocks = sum(pages) + B  # B spare blocks that no sequence owns
    q = torch.randn(B, HQ, D, generator=gen, device=device).mul_(1.4).to(dtype)
    k_cache = torch.randn(num_blocks, P, HKV, D, generator=gen, device=device).mul_(1.4)
    v_cache = torch.randn(num_blocks, P, HKV, D, generator=gen, device=device)
    # Pages are scattered through the cache in a random order; unused table entries point at
    # pages of other sequences, and every slot past a sequence's end holds inf (not NaN: the
    # judge's unchanged-inputs check uses torch.equal, which is False for NaN).
    perm = torch.randperm(num_blocks, generator=gen, device=device)
    table = torch.empty(B, max_pages, dtype=torch.int64, device=device)
    filler = torch.randint(0, num_blocks, (B, max_pages), generator=gen, device=device)
    table.copy_(filler)
    owned = torch.ones(num_blocks, P, dtype=torch.bool, device=device)
    start = 0
    for b, n in enumerate(lens):
        blocks = perm[start:start + pages[b]]
        table[b, :pages[b]] = blocks
        owned[blocks] = False
        tail = pages[b] * P - n
        if tail:
            k_cache[blocks[-1], P - tail:] = float("inf")
            v_cache[blocks[-1], P - tail:] = float("inf")
        start += pages[b]
    k_cache[owned] = float("inf")
    v_cache[owned] = float("inf")
    seq_lens = torch.tensor(lens, dtype=torch.int32, device=device)
    return (q, k_cache.to(dtype), v_cache.to(dtype), table.to(torch.int32), seq_lens)


def reference(q, k_cache, v_cache, block_table, seq_lens):
    B, HQ, D = q.shape
    P, HKV = k_cache.shape[1], k_cache.shape[2]
    T = block_table.shape[1] * P
    k = k_cache[block_table.long()].reshape(B, T, HKV, D)
    v = v_cache[block_table.long()].reshape(B, T, HKV, D)
    valid = torch.arange(T, device=q.device)[None, :] < seq_lens.long()[:, None]
    qg = q.reshape(B, HKV, HQ // HKV, D)
    scores = torch.einsum("bkgd,btkd->bkgt", qg, k) * D**-0.5
    scores = scores.masked_fill(~valid[:, None, None, :], float("-inf"))
    p = torch.softmax(scores, dim=-1)
    v = torch.where(valid[:, :, None, None], v, torch.zeros((), dtype=v.dtype, device=v.device))
    return torch.einsum("bkgt,btkd->bkgd", p, v).reshape(B, HQ, D)
