"""Known-wrong segmented prefix-sum variants `aka tasks check` must see rejected."""

import torch


def _scan(x: torch.Tensor, starts_of: torch.Tensor) -> torch.Tensor:
    c = torch.zeros(x.shape[0] + 1, dtype=torch.float64, device=x.device)
    c[1:] = torch.cumsum(x.double(), 0)
    return (c[1:] - c[starts_of]).to(x.dtype)


def _starts(offsets: torch.Tensor, T: int) -> torch.Tensor:
    o = offsets.long()
    seg = torch.bucketize(torch.arange(T, device=o.device), o[1:], right=True)
    return o[seg]


def global_cumsum(x, offsets):
    # One prefix sum over the whole vector (the segments ignored).
    return _scan(x, torch.zeros(x.shape[0], dtype=torch.long, device=x.device))


def exclusive(x, offsets):
    # The exclusive scan within each segment.
    return (_scan(x, _starts(offsets, x.shape[0])).double() - x.double()).to(x.dtype)


def first_element_dropped(x, offsets):
    # Each segment's sum started one element late (its first element dropped).
    s = _starts(offsets, x.shape[0])
    return _scan(x, torch.where(s > 0, s + 1, s).clamp(max=x.shape[0]))
