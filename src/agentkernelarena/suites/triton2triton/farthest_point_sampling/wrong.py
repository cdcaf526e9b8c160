"""Known-wrong variants of farthest point sampling: ties resolved to the largest index, and
the running minimum distance replaced by the distance to the last selected point only."""

import torch


def ties_to_largest(xyz: torch.Tensor, s: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    flipped = xyz.flip(1)
    dist = torch.full((B, N), float("inf"), dtype=xyz.dtype, device=xyz.device)
    idx = torch.zeros((B, s), dtype=torch.int64, device=xyz.device)
    far = torch.full((B,), N - 1, dtype=torch.int64, device=xyz.device)
    for i in range(s):
        idx[:, i] = N - 1 - far
        c = torch.gather(flipped, 1, far[:, None, None].expand(B, 1, 3))
        dist = torch.minimum(dist, ((flipped - c) ** 2).sum(-1))
        far = dist.argmax(dim=-1)
    return idx


def last_point_only(xyz: torch.Tensor, s: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    idx = torch.zeros((B, s), dtype=torch.int64, device=xyz.device)
    far = torch.zeros(B, dtype=torch.int64, device=xyz.device)
    for i in range(s):
        idx[:, i] = far
        c = torch.gather(xyz, 1, far[:, None, None].expand(B, 1, 3))
        far = ((xyz - c) ** 2).sum(-1).argmax(dim=-1)
    return idx
