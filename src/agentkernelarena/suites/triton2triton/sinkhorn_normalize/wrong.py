"""Known-wrong Sinkhorn variants `aka tasks check` must see rejected."""

import torch

EPS = 1e-8


def columns_first(x: torch.Tensor, K: int) -> torch.Tensor:
    for _ in range(K):
        x = x / (x.sum(dim=1, keepdim=True) + EPS)
        x = x / (x.sum(dim=2, keepdim=True) + EPS)
    return x


def no_eps(x: torch.Tensor, K: int) -> torch.Tensor:
    for _ in range(K):
        x = x / x.sum(dim=2, keepdim=True)
        x = x / x.sum(dim=1, keepdim=True)
    return x


def rows_only(x: torch.Tensor, K: int) -> torch.Tensor:
    for _ in range(K):
        x = x / (x.sum(dim=2, keepdim=True) + EPS)
    return x


def one_iteration_fewer(x: torch.Tensor, K: int) -> torch.Tensor:
    for _ in range(K - 1):
        x = x / (x.sum(dim=2, keepdim=True) + EPS)
        x = x / (x.sum(dim=1, keepdim=True) + EPS)
    return x
