"""Known-wrong masked_scatter variants `aka tasks check` must see rejected."""

import torch


def same_position(x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    # Masked token t takes src row t (torch.where) instead of the next unused src row.
    return torch.where(mask[:, None], src, x)


def rank_off_by_one(x: torch.Tensor, mask: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    # The inclusive count of masked tokens used as the source row (skips src row 0).
    rank = torch.cumsum(mask.long(), 0).clamp(max=src.shape[0] - 1)
    return torch.where(mask[:, None], src[rank], x)
