"""Known-wrong variants of farthest point sampling: the distance to the last pick only (the
running minimum forgotten), and ties broken towards the largest index."""

import torch


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


def last_pick_only(points, idx):
    return _fps(points, idx.shape[1], accumulate=False)[0]


def last_index_on_ties(points, idx):
    return _fps(points, idx.shape[1], last_on_ties=True)[0]
