"""Reference and inputs for the paged-KV-cache decode attention task."""

import torch

BLOCK_SIZE = 16
HEAD_DIM = 64


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, H, S = config["B"], config["H"], config["S"]
    gen = torch.Generator(device=device).manual_seed(seed)
    max_blocks = (S + BLOCK_SIZE - 1) // BLOCK_SIZE
    num_blocks = B * max_blocks + 3  # a few blocks no sequence uses
    # Sequence lengths between S/2 and S (the first exactly S), not multiples of the block.
    seq_lens = torch.randint((S + 1) // 2, S + 1, (B,), generator=gen, device=device)
    seq_lens[0] = S
    # The cache blocks scattered over the pool in a random order.
    perm = torch.randperm(num_blocks, generator=gen, device=device)
    block_table = perm[: B * max_blocks].view(B, max_blocks)
    shape = (num_blocks, BLOCK_SIZE, H, HEAD_DIM)
    k_cache = torch.randn(shape, generator=gen, device=device)
    v_cache = torch.randn(shape, generator=gen, device=device)
    q = torch.randn(B, H, HEAD_DIM, generator=gen, device=device).mul_(1.5)
    return (q.half(), k_cache.half(), v_cache.half(), block_table.to(torch.int32),
            seq_lens.to(torch.int32))


def reference(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor,
              block_table: torch.Tensor, seq_lens: torch.Tensor) -> torch.Tensor:
    B, H, D = q.shape
    out = torch.empty_like(q)
    for b in range(B):
        L = int(seq_lens[b])
        blocks = block_table[b, : (L + BLOCK_SIZE - 1) // BLOCK_SIZE].long()
        k = k_cache[blocks].reshape(-1, H, D)[:L]
        v = v_cache[blocks].reshape(-1, H, D)[:L]
        scores = torch.einsum("hd,lhd->hl", q[b], k) * D**-0.5
        p = torch.softmax(scores, dim=-1)
        out[b] = torch.einsum("hl,lhd->hd", p, v)
    return out


def min_bytes(config: dict, q, k_cache, v_cache, block_table, seq_lens) -> int:
    """K and V of every cached position a sequence uses, the queries and the outputs."""
    H = config["H"]
    return int(seq_lens.long().sum()) * H * HEAD_DIM * 2 * 2 + 2 * q.numel() * 2
