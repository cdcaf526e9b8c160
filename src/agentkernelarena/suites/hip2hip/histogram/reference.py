"""Reference and inputs for the weighted histogram task: hist + bincount(idx, weights=w)."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    gen = torch.Generator(device=device).manual_seed(seed)
    N, B = config["N"], config["B"]
    # Most indices uniform over the bins, one in eight on 8 heavy bins (the skew of real
    # routing and token statistics, and contention for atomics).
    idx = torch.randint(0, B, (N,), generator=gen, device=device, dtype=torch.int32)
    hot = torch.randint(0, B, (8,), generator=gen, device=device, dtype=torch.int32)
    pick = torch.randint(0, 8, (N,), generator=gen, device=device)
    heavy = torch.rand(N, generator=gen, device=device) < 0.125
    idx = torch.where(heavy, hot[pick], idx)
    # Weights and starting counts are multiples of 1/4: every partial sum below 2**22 is exact
    # in float32, so any order of accumulation gives the same result.
    w = torch.randint(1, 9, (N,), generator=gen, device=device).float().div_(4)
    hist = torch.randint(0, 1000, (B,), generator=gen, device=device).float().div_(4)
    return (idx, w, hist)


def reference(idx: torch.Tensor, w: torch.Tensor, hist: torch.Tensor) -> torch.Tensor:
    return hist.clone().index_add_(0, idx.long(), w.to(hist.dtype))
