"""Known-wrong variants `aka tasks check` must see rejected: the masked scores multiplied by 0
instead of excluded (they still count in the normalization, as exp(0)), and a fully masked row
given the uniform distribution instead of zeros."""

import torch


def masked_scores_zeroed(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    return torch.softmax(x.to(acc) * (~mask).to(acc), dim=-1).to(x.dtype)


def dead_rows_uniform(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    dead = mask.all(-1, keepdim=True)
    scores = x.to(acc).masked_fill(mask & ~dead, float("-inf"))
    scores = torch.where(dead, torch.zeros_like(scores), scores)
    return torch.softmax(scores, dim=-1).to(x.dtype)
