"""Known-wrong segment max variants `aka tasks check` must see rejected."""

import torch


def _segmax(x: torch.Tensor, ids: torch.Tensor, S: int, include_zero: bool) -> torch.Tensor:
    D = x.shape[1]
    out = torch.zeros(S, D, dtype=x.dtype, device=x.device)
    index = ids.long()[:, None].expand(-1, D)
    return out.scatter_reduce(0, index, x, reduce="amax", include_self=include_zero)


def zero_initialized(x, seg_ids, num_segments):
    # The running max started at 0 instead of -inf: negative maxima come out as 0.
    return _segmax(x, seg_ids, num_segments, True)


def boundary_off_by_one(x, seg_ids, num_segments):
    # Each segment's first row counted in the segment before it.
    ids = seg_ids.long().clone()
    first = torch.ones_like(ids, dtype=torch.bool)
    first[1:] = ids[1:] != ids[:-1]
    ids[1:] = torch.where(first[1:], ids[:-1], ids[1:])
    return _segmax(x, ids, num_segments, False)
