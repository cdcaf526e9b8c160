"""Reference and inputs for sorting routed (token, slot) pairs by expert."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    T, K, E = config["T"], config["K"], config["E"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Each token picks K distinct experts, with a skew towards a few popular ones; expert E - 1
    # is never chosen (an empty expert).
    usable = max(E - 1, 1)
    popularity = torch.rand(T, usable, generator=gen, device=device)
    popularity[:, : max(1, usable // 8)] += 0.5
    ids = popularity.topk(min(K, usable), dim=1).indices
    if ids.shape[1] < K:
        ids = torch.cat([ids, ids[:, :1].expand(T, K - ids.shape[1])], dim=1)
    return (ids.to(torch.int32).contiguous(), E)


def reference(topk_ids: torch.Tensor, num_experts: int):
    flat = topk_ids.reshape(-1).long()
    counts = torch.bincount(flat, minlength=num_experts)
    offsets = torch.zeros(num_experts + 1, dtype=torch.int64, device=flat.device)
    offsets[1:] = torch.cumsum(counts, 0)
    order = torch.sort(flat, stable=True).indices
    return (order.to(torch.int32), offsets.to(torch.int32))
