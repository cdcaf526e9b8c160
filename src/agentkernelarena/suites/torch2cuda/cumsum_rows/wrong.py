"""Known-wrong variants `aka tasks check` must see rejected: an exclusive scan (each element's
own value left out) and a scan that restarts every 256 elements (tiles never carried)."""

import torch


def exclusive(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    return (torch.cumsum(xf, dim=-1) - xf).to(x.dtype)


def tiles_not_carried(x: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    xf = x.to(acc)
    M, N = xf.shape
    pad = (-N) % 256
    tiles = torch.nn.functional.pad(xf, (0, pad)).reshape(M, -1, 256)
    return torch.cumsum(tiles, dim=-1).reshape(M, -1)[:, :N].to(x.dtype)
