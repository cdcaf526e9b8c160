"""Reference and inputs for EmbeddingBag in mean mode with offsets.

Bag b holds indices[offsets[b]:offsets[b + 1]] (the last bag runs to the end of indices);
out[b] = the mean of weight[i] over those indices (repeats counted), 0 for an empty bag; summed
in float32 (float64 for float64 inputs), in weight's dtype.

The number of indices is B * L for every seed (V >= B * L / 2: at least half of them are distinct
rows); the bag boundaries are random, and about one bag
in eight (always bag 1 when there are three or more) is empty.
"""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    V, D, B, L = config["V"], config["D"], config["B"], config["L"]
    total = B * L
    gen = torch.Generator(device=device).manual_seed(seed)
    weight = torch.randn(V, D, generator=gen, device=device).to(dtype)
    # At least half of the lookups hit distinct rows (a correct kernel must read those), the
    # rest are uniform (repeats within and across bags).
    distinct = torch.randperm(V, generator=gen, device=device)[: total // 2]
    repeated = torch.randint(0, V, (total - total // 2,), generator=gen, device=device)
    order = torch.randperm(total, generator=gen, device=device)
    indices = torch.cat([distinct, repeated])[order].contiguous()
    cuts = torch.randint(0, total + 1, (B - 1,), generator=gen, device=device).sort().values
    offsets = torch.cat([torch.zeros(1, dtype=torch.int64, device=device), cuts])
    # Empty bags: bag b is emptied by starting bag b + 1 where bag b starts (a forward fill of
    # the starts over the bags that follow an emptied one).
    empty = torch.rand(B, generator=gen, device=device) < 0.125
    if B >= 3:
        empty[1] = True
    kept = torch.cat([torch.ones(1, dtype=torch.bool, device=device), ~empty[:-1]])
    source = torch.cummax(torch.arange(B, device=device) * kept, dim=0).values
    offsets = offsets[source]
    return (weight, indices, offsets.contiguous())


def reference(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if weight.dtype == torch.float64 else torch.float32
    total = indices.numel()
    B = offsets.numel()
    ends = torch.cat([offsets[1:], offsets.new_full((1,), total)])
    sizes = ends - offsets
    bag = torch.repeat_interleave(torch.arange(B, device=weight.device), sizes)
    sums = torch.zeros(B, weight.shape[1], dtype=acc, device=weight.device)
    sums.index_add_(0, bag, weight.to(acc)[indices])
    return (sums / sizes.clamp(min=1).to(acc)[:, None]).to(weight.dtype)


def min_bytes(config: dict, weight: torch.Tensor, indices: torch.Tensor,
              offsets: torch.Tensor) -> int:
    """What a correct kernel must move: each row used read once, indices, offsets, out."""
    rows = int(torch.unique(indices).numel())
    row_bytes = weight.shape[1] * weight.element_size()
    return rows * row_bytes + 8 * (indices.numel() + offsets.numel()) + offsets.numel() * row_bytes


def exercised(config: dict, weight: torch.Tensor, indices: torch.Tensor,
              offsets: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs: an empty bag, bags of other sizes."""
    ends = torch.cat([offsets[1:], offsets.new_full((1,), indices.numel())])
    sizes = ends - offsets
    return {"an empty bag": bool((sizes == 0).any()),
            "bags of different sizes": bool(sizes.unique().numel() > 2)}
