"""Known-wrong variants of row-wise cosine similarity: eps placed the old or a different way."""

import torch

EPS = 1e-8


def eps_on_product(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # PyTorch < 1.12: dot / sqrt(max(||a||^2 * ||b||^2, eps^2)).
    w = (a * a).sum(1) * (b * b).sum(1)
    return (a * b).sum(1) / torch.sqrt(torch.clamp(w, min=EPS * EPS))


def eps_added(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a * b).sum(1) / (a.norm(dim=1) * b.norm(dim=1) + EPS)


def eps_left_out(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # nan on the zero rows, unclamped on the tiny ones.
    return (a * b).sum(1) / (a.norm(dim=1) * b.norm(dim=1))
