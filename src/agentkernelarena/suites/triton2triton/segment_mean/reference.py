"""Reference and inputs for mean pooling over ragged sequences (cu_seqlens layout)."""

import torch


def segment_lens(T: int, B: int) -> list[int]:
    """Ragged lengths >= 1 summing to T, fixed by the configuration: B - 1 short or medium
    sequences and one (the first) holding about half of all tokens."""
    short = [1 + (b * 7919) % max(1, T // B) for b in range(1, B)]
    return [T - sum(short)] + short


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, B, D = config["T"], config["B"], config["D"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, D, generator=gen, device=device).add_(0.25).to(dtype)
    cu = [0]
    for n in segment_lens(T, B):
        cu.append(cu[-1] + n)
    return (x, torch.tensor(cu, dtype=torch.int32, device=device))


def reference(x: torch.Tensor, cu_seqlens: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    bounds = cu_seqlens.tolist()
    rows = [x[bounds[b]:bounds[b + 1]].to(acc).mean(dim=0) for b in range(len(bounds) - 1)]
    return torch.stack(rows).to(x.dtype)
