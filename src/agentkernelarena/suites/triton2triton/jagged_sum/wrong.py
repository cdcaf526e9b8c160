"""Known-wrong jagged sum variants `aka tasks check` must see rejected."""

import torch


def _sums(x: torch.Tensor, starts: torch.Tensor, ends: torch.Tensor) -> torch.Tensor:
    c = torch.zeros(x.shape[0] + 1, dtype=torch.float64, device=x.device)
    c[1:] = torch.cumsum(x.double(), 0)
    return (c[ends] - c[starts]).to(x.dtype)


def segment_end_included(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    # Segment b summed over offsets[b] .. offsets[b + 1] inclusive (an off-by-one bound).
    o = offsets.long()
    return _sums(x, o[:-1], torch.clamp(o[1:] + 1, max=x.shape[0]))


def capped_length(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    # Only the first 4096 elements of each segment (a fixed-size tile, no loop).
    o = offsets.long()
    return _sums(x, o[:-1], torch.minimum(o[1:], o[:-1] + 4096))
