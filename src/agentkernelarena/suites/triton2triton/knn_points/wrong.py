"""Known-wrong variants of the K-nearest-neighbour search: Euclidean instead of squared
distances, and the neighbours in descending instead of ascending order."""

import torch


def not_squared(q: torch.Tensor, p: torch.Tensor, k: int):
    d = torch.cdist(q, p, compute_mode="donot_use_mm_for_euclid_dist")
    dists, idx = torch.topk(d, k, dim=-1, largest=False, sorted=True)
    return (dists, idx)


def descending(q: torch.Tensor, p: torch.Tensor, k: int):
    d = torch.cdist(q, p, compute_mode="donot_use_mm_for_euclid_dist").square()
    dists, idx = torch.topk(d, k, dim=-1, largest=False, sorted=True)
    return (dists.flip(-1), idx.flip(-1))
