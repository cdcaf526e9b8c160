"""Known-wrong log-softmax variant `aka tasks check` must see rejected."""

import math

import torch


def lse_in_base_2(x: torch.Tensor) -> torch.Tensor:
    """The exp2 trick without converting the log back: x - max - log2(sum exp(x - max))."""
    m = x.amax(dim=-1, keepdim=True)
    return x - m - torch.log(torch.exp(x - m).sum(dim=-1, keepdim=True)) / math.log(2.0)
