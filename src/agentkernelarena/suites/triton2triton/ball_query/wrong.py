"""Known-wrong variants of the ball query: padding the missing slots with 0 instead of the first
found index, and returning the k nearest points inside the ball instead of the first k."""

import torch


def pad_zero(centers: torch.Tensor, xyz: torch.Tensor, radius: float, k: int) -> torch.Tensor:
    N = xyz.shape[1]
    d2 = ((centers[:, :, None, :] - xyz[:, None, :, :]) ** 2).sum(-1)
    order = torch.where(d2 < radius * radius, torch.arange(N, device=xyz.device), N)
    first_k = torch.topk(order, k, dim=-1, largest=False, sorted=True).values
    return torch.where(first_k < N, first_k, 0)


def nearest_k(centers: torch.Tensor, xyz: torch.Tensor, radius: float, k: int) -> torch.Tensor:
    N = xyz.shape[1]
    d2 = ((centers[:, :, None, :] - xyz[:, None, :, :]) ** 2).sum(-1)
    # Ties broken by index: distance first, then position.
    key = torch.where(d2 < radius * radius, d2 * (4 * N) + torch.arange(N, device=xyz.device),
                      float("inf"))
    vals, idx = torch.topk(key, k, dim=-1, largest=False, sorted=True)
    first = torch.where(torch.isfinite(vals[..., :1]), idx[..., :1], 0)
    return torch.where(torch.isfinite(vals), idx, first)
