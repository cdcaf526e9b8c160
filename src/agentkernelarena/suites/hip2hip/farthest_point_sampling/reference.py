"""Reference and inputs for farthest point sampling (PointNet++), starting at index 0."""

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, N, npoint, G = config["B"], config["N"], config["npoint"], config["G"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Integer coordinates in [0, G): every squared distance is exact in float32 (the pick does
    # not depend on rounding), and small grids give equal distances, which the tie rule decides.
    points = torch.randint(0, G, (B, N, 3), generator=gen, device=device).to(torch.float32)
    # The output, preallocated by the caller (as PointNet++'s op takes it); filled by the kernel.
    idx = torch.full((B, npoint), -1, dtype=torch.int64, device=device)
    return (points, idx)


def _fps(points: torch.Tensor, npoint: int, accumulate: bool = True,
         last_on_ties: bool = False) -> tuple:
    B, N, _ = points.shape
    out = torch.zeros(B, npoint, dtype=torch.int64, device=points.device)
    dist = torch.full((B, N), float("inf"), dtype=points.dtype, device=points.device)
    rows = torch.arange(B, device=points.device)
    last = torch.zeros(B, dtype=torch.int64, device=points.device)
    ties = False
    for j in range(1, npoint):
        d = ((points - points[rows, last][:, None, :]) ** 2).sum(-1)
        dist = torch.minimum(dist, d) if accumulate else d
        best = dist.max(dim=1, keepdim=True).values
        ties = ties or bool(((dist == best).sum(1) > 1).any())
        if last_on_ties:
            last = N - 1 - torch.argmax(dist.flip(1), dim=1)
        else:
            last = torch.argmax(dist, dim=1)  # the first of equal maxima
        out[:, j] = last
    return out, ties


def reference(points: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    return _fps(points, idx.shape[1])[0]


def exercised(config: dict, points, idx) -> dict:
    return {"a tie for the farthest point": _fps(points, idx.shape[1])[1],
            "N not a multiple of 64": config["N"] % 64 != 0}
