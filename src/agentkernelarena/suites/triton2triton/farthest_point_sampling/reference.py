"""Reference and inputs for iterative farthest point sampling."""

import torch


def _fps(xyz: torch.Tensor, s: int):
    """FPS from index 0, ties to the smallest index; also says whether any step had a tie."""
    B, N, _ = xyz.shape
    dist = torch.full((B, N), float("inf"), dtype=xyz.dtype, device=xyz.device)
    idx = torch.zeros((B, s), dtype=torch.int64, device=xyz.device)
    far = torch.zeros(B, dtype=torch.int64, device=xyz.device)
    ties = torch.zeros((), dtype=torch.bool, device=xyz.device)
    for i in range(s):
        idx[:, i] = far
        c = torch.gather(xyz, 1, far[:, None, None].expand(B, 1, 3))
        dist = torch.minimum(dist, ((xyz - c) ** 2).sum(-1))
        top = dist.max(dim=-1, keepdim=True).values
        if i + 1 < s:
            ties |= ((dist == top).sum(-1) > 1).any()
        far = dist.argmax(dim=-1)
    return idx, bool(ties)


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, N = config["B"], config["N"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Coordinates on a grid of 1/1024 in [0, 1): squared distances (and every intermediate of
    # |a|^2 + |b|^2 - 2 a.b) are multiples of 2^-20 below 16, exact in float32 whatever the
    # formula, so every comparison is exact and ties (which do occur) are decided by the rule.
    xyz = torch.randint(0, 1024, (B, N, 3), generator=gen, device=device).float() / 1024
    # Duplicated points (as scans have): one point in 64 copies another, and the point farthest
    # from point 0 is copied to a random other index, so sample 1 is always a tie.
    n_dup = N // 64
    if n_dup:
        src = torch.randint(0, N, (B, n_dup), generator=gen, device=device)
        dst = torch.randint(1, N, (B, n_dup), generator=gen, device=device)
        xyz.scatter_(1, dst[..., None].expand(B, n_dup, 3),
                     torch.gather(xyz, 1, src[..., None].expand(B, n_dup, 3)))
    if N >= 3:
        far = ((xyz - xyz[:, :1]) ** 2).sum(-1).argmax(-1)
        dst = torch.randint(1, N - 1, (B,), generator=gen, device=device)
        dst = torch.where(dst >= far, dst + 1, dst)
        xyz[torch.arange(B, device=device), dst] = xyz[torch.arange(B, device=device), far]
    return (xyz, config["S"])


def reference(xyz: torch.Tensor, s: int) -> torch.Tensor:
    return _fps(xyz, s)[0]


def exercised(config: dict, *inputs) -> dict:
    """Some step's farthest distance is attained by two points: the tie rule decides."""
    xyz, s = inputs
    return {"tie decided by the smallest index": _fps(xyz, s)[1]}
