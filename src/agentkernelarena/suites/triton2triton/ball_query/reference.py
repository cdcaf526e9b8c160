"""Reference and inputs for the PointNet++ ball query."""

import math

import torch


def make_inputs(config: dict, seed: int, device: str) -> tuple:
    B, N, S = config["B"], config["N"], config["S"]
    gen = torch.Generator(device=device).manual_seed(seed)
    # Coordinates on a grid of 1/1024 in [0, 1): every squared distance between two points is a
    # multiple of 2^-20 below 3, exact in float32 whatever the formula, and radius^2 lies half
    # way between two multiples, so no point is on the sphere's boundary.
    xyz = torch.randint(0, 1024, (B, N, 3), generator=gen, device=device).float() / 1024
    pick = torch.rand(B, N, generator=gen, device=device).argsort(dim=1)[:, :S]
    centers = torch.gather(xyz, 1, pick[..., None].expand(B, S, 3)).clone()
    # One center in 16 is moved far outside the cloud: no point within the radius.
    far = torch.rand(B, S, generator=gen, device=device) < 1 / 16
    far[:, 0] = True
    centers[far] += 8.0
    r2 = (round(config["R"] ** 2 * 2**20) + 0.5) / 2**20
    return (centers, xyz, math.sqrt(r2), config["K"])


def reference(centers: torch.Tensor, xyz: torch.Tensor, radius: float, k: int) -> torch.Tensor:
    N = xyz.shape[1]
    d2 = ((centers[:, :, None, :] - xyz[:, None, :, :]) ** 2).sum(-1)
    inside = d2 < radius * radius
    pos = torch.arange(N, device=xyz.device).expand_as(inside)
    order = torch.where(inside, pos, N)
    first_k = torch.topk(order, min(k, N), dim=-1, largest=False, sorted=True).values
    first = torch.where(first_k[..., :1] < N, first_k[..., :1], 0)
    return torch.where(first_k < N, first_k, first)


def exercised(config: dict, *inputs) -> dict:
    """Centers with no point inside (all zeros), and centers with fewer than k (padding)."""
    centers, xyz, radius, k = inputs
    d2 = ((centers[:, :, None, :] - xyz[:, None, :, :]) ** 2).sum(-1)
    cnt = (d2 < radius * radius).sum(-1)
    return {"center with no point inside": bool((cnt == 0).any()),
            "center with fewer than k (padded)": bool(((cnt > 0) & (cnt < k)).any()),
            "center with more than k (truncated)": bool((cnt > k).any())}
