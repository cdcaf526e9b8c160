"""Known-wrong variants `aka tasks check` must see rejected: the bags' sums instead of their
means, and the last bag cut off (taken as ending at its own offset, not at the end of
indices)."""

import torch


def _bags(weight, indices, offsets, ends):
    acc = torch.float64 if weight.dtype == torch.float64 else torch.float32
    B = offsets.numel()
    sizes = ends - offsets
    bag = torch.repeat_interleave(torch.arange(B, device=weight.device), sizes)
    sums = torch.zeros(B, weight.shape[1], dtype=acc, device=weight.device)
    sums.index_add_(0, bag, weight.to(acc)[indices[: int(ends[-1])]])
    return sums, sizes.clamp(min=1).to(acc)[:, None]


def sum_not_mean(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor):
    ends = torch.cat([offsets[1:], offsets.new_full((1,), indices.numel())])
    sums, _ = _bags(weight, indices, offsets, ends)
    return sums.to(weight.dtype)


def last_bag_dropped(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor):
    ends = torch.cat([offsets[1:], offsets[-1:]])
    sums, sizes = _bags(weight, indices, offsets, ends)
    return (sums / sizes).to(weight.dtype)
