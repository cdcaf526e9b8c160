"""Reference and inputs for torch.histc (equal-width bins over [lo, hi])."""

import torch

LO, HI = -2.5, 3.5


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    N, bins = config["N"], config["BINS"]
    gen = torch.Generator(device=device).manual_seed(seed)
    w = (HI - LO) / bins
    # Values at a random bin's centre, jittered by at most 0.4 bin widths: never near an edge.
    b = torch.randint(0, bins, (N,), generator=gen, device=device).double()
    j = (torch.rand(N, generator=gen, device=device, dtype=torch.float64) - 0.5) * 0.8
    x = LO + (b + 0.5 + j) * w
    # A tenth of the values outside [lo, hi] (below or above by 0.1 .. 2 bin widths at least).
    out = torch.rand(N, generator=gen, device=device) < 0.1
    side = torch.rand(N, generator=gen, device=device) < 0.5
    dist = 0.1 * w + torch.rand(N, generator=gen, device=device, dtype=torch.float64) * 2.0
    x = torch.where(out, torch.where(side, LO - dist, HI + dist), x)
    # A few values exactly hi (they count in the last bin) and exactly lo (the first bin).
    n_edge = max(1, N // 1000)
    pos = torch.randint(0, N, (2 * n_edge,), generator=gen, device=device)
    x[pos[:n_edge]] = HI
    x[pos[n_edge:]] = LO
    return (x.to(torch.float32), bins, LO, HI)


def reference(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    return torch.histc(x.float(), bins=bins, min=lo, max=hi)


def exercised(config: dict, x: torch.Tensor, bins: int, lo: float, hi: float) -> dict:
    """The description's rules, seen in these inputs."""
    return {"values equal to hi": bool((x == hi).any()),
            "values below lo": bool((x < lo).any()),
            "values above hi": bool((x > hi).any())}
