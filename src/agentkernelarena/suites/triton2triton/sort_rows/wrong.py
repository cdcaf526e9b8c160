"""Known-wrong row sort variants `aka tasks check` must see rejected."""

import torch


def descending(x: torch.Tensor) -> torch.Tensor:
    return torch.sort(x, dim=1, descending=True).values


def sorted_by_magnitude(x: torch.Tensor) -> torch.Tensor:
    order = torch.sort(x.abs(), dim=1, stable=True).indices
    return torch.gather(x, 1, order)
