"""Known-wrong variants `aka tasks check` must see rejected: the mean over all S positions
(the mask applied to the sum but not to the count), and the padding assumed on the right (the
first `count` positions averaged, wrong for left-padded sequences)."""

import torch


def mean_over_all_positions(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    m = attention_mask.to(hidden.dtype).unsqueeze(-1)
    return (hidden * m).sum(1) / hidden.shape[1]


def assumes_right_padding(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    counts = attention_mask.sum(1, keepdim=True)
    prefix = (torch.arange(hidden.shape[1], device=hidden.device)[None, :] < counts)
    m = prefix.to(hidden.dtype).unsqueeze(-1)
    return (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)
