"""Reference and inputs for the histogram-with-edges task."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, B = config["N"], config["B"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Strictly increasing edges from -3 to 3 with random gaps (bins of unequal width).
    gaps = torch.rand(B, generator=gen, device=device, dtype=torch.float64).add_(0.05)
    inner = torch.cumsum(gaps, 0)
    edges = torch.cat([inner.new_zeros(1), inner]).div_(inner[-1]).mul_(6.0).sub_(3.0)
    edges = edges.to(torch.float32)
    # Peaked around 0, about 5% of the values outside [-3, 3].
    x = torch.randn(N, generator=gen, device=device).mul_(1.5)
    # Some values exactly on edges (the last one too), where a bin boundary is decided.
    k = max(1, N // 64)
    where = torch.randint(0, N, (k,), generator=gen, device=device)
    x[where] = edges[torch.randint(0, B + 1, (k,), generator=gen, device=device)]
    x[where[0]] = edges[-1]
    # NaN and infinities, which the description says are not counted (1 in 512 values each).
    for value in (float("nan"), float("inf"), float("-inf")):
        x[torch.randint(0, N, (max(1, N // 512),), generator=gen, device=device)] = value
    return (x, edges)


def reference(x: torch.Tensor, edges: torch.Tensor) -> torch.Tensor:
    B = edges.numel() - 1
    # idx = the i with edges[i] <= x < edges[i + 1]; -1 below edges[0], B at or above edges[B].
    idx = torch.searchsorted(edges, x, right=True) - 1
    idx = torch.where(x == edges[-1], B - 1, idx)
    valid = (idx >= 0) & (idx < B) & ~torch.isnan(x)
    return torch.bincount(idx[valid], minlength=B).to(torch.int32)


def exercised(config: dict, x: torch.Tensor, edges: torch.Tensor) -> dict:
    """The description's rules, seen in these inputs."""
    return {"NaN values": bool(torch.isnan(x).any()),
            "values outside the edges": bool(((x < edges[0]) | (x > edges[-1])).any()),
            "values equal to the last edge": bool((x == edges[-1]).any())}
