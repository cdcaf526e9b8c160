"""Reference and inputs for the row gather task (KV-cache slots / embedding rows)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    V, T, D = config["V"], config["T"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    table = torch.randn(V, D, generator=gen, device=device).to(dtype)
    # T distinct slots in random order (T <= V), as a KV cache's slot mapping is: every gathered
    # row is a different row of the table.
    idx = torch.randperm(V, generator=gen, device=device)[:T].to(torch.int32)
    return (table, idx)


def reference(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    return table[idx.long()]
