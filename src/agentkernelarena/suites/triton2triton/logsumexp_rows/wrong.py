"""Known-wrong logsumexp variants `aka tasks check` must see rejected."""

import math

import torch


def base_2_log(x: torch.Tensor) -> torch.Tensor:
    """The exp2 trick without converting back: max + log2(sum exp(x - max))."""
    m = x.amax(dim=-1)
    return m + torch.log(torch.exp(x - m[:, None]).sum(dim=-1)) / math.log(2.0)


def last_chunk_dropped(x: torch.Tensor) -> torch.Tensor:
    """A split-row kernel that forgets the partial of the last (ragged) chunk of 1024."""
    V = x.shape[-1]
    keep = max(1024, (V // 1024) * 1024) if V % 1024 else V
    return torch.logsumexp(x[:, :keep], dim=-1)
