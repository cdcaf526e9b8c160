"""Reference and inputs for the embedding-bag sum task (CSR offsets, float32 accumulation)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    gen = torch.Generator(device=device).manual_seed(seed)
    B, P, V, D = config["B"], config["P"], config["V"], config["D"]
    # Bags of uneven sizes in [0, 2P] (some empty) that add up to exactly B * P rows, so that
    # every seed gives tensors of the same shapes: pairs of sizes P + r and P - r, shuffled.
    r = torch.randint(-P, P + 1, (B // 2,), generator=gen, device=device)
    odd = torch.full((B % 2,), P, device=device, dtype=torch.int64)
    lengths = torch.cat((P + r, P - r, odd))
    lengths = lengths[torch.randperm(B, generator=gen, device=device)]
    offsets = torch.cat((torch.zeros(1, dtype=torch.int64, device=device), lengths.cumsum(0)))
    table = torch.randn(V, D, generator=gen, device=device).to(dtype)
    indices = torch.randint(0, V, (int(offsets[-1]),), generator=gen, device=device)
    return (table, indices, offsets)


def reference(table: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if table.dtype == torch.float64 else torch.float32
    B = offsets.numel() - 1
    bag = torch.repeat_interleave(torch.arange(B, device=table.device), offsets.diff())
    out = torch.zeros(B, table.shape[1], dtype=acc, device=table.device)
    out.index_add_(0, bag, table.to(acc)[indices])
    return out.to(table.dtype)
