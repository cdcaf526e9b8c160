"""Reference and inputs for the grouped (per-expert) GEMM of a mixture-of-experts layer."""

import torch


def expert_counts(T: int, E: int) -> list[int]:
    """Skewed token counts per expert (as routers produce), fixed by the configuration so that
    every seed costs the same work; expert E // 2 gets no tokens at all."""
    weights = [1.0 / (1 + (7 * e) % E) ** 0.7 for e in range(E)]
    weights[E // 2] = 0.0
    total = sum(weights)
    counts = [int(T * w / total) for w in weights]
    counts[0] += T - sum(counts)
    return counts


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    dtype = getattr(torch, config["dtype"])
    T, E, N, K = config["T"], config["E"], config["N"], config["K"]
    gen = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(T, K, generator=gen, device=device).to(dtype)
    w = torch.randn(E, N, K, generator=gen, device=device).mul_(K**-0.5).to(dtype)
    offsets = [0]
    for c in expert_counts(T, E):
        offsets.append(offsets[-1] + c)
    return (x, w, torch.tensor(offsets, dtype=torch.int32, device=device))


def reference(x: torch.Tensor, w: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape[0], w.shape[1], dtype=x.dtype, device=x.device)
    bounds = offsets.tolist()
    for e in range(w.shape[0]):
        lo, hi = bounds[e], bounds[e + 1]
        if hi > lo:
            out[lo:hi] = x[lo:hi] @ w[e].T
    return out
