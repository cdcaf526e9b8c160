"""Known-wrong variants of the causal softmax: the mask off by one either way (the key just
after the query kept, or the diagonal masked, which leaves row 0 empty), and the scale left
out."""

import torch


def _masked_softmax(x: torch.Tensor, scale: float, offset: int) -> torch.Tensor:
    S = x.shape[-1]
    work = x.to(torch.promote_types(x.dtype, torch.float32)) * scale
    masked = torch.ones(S, S, dtype=torch.bool, device=x.device).triu(1 + offset)
    work = work.masked_fill(masked, float("-inf"))
    return torch.softmax(work, dim=-1).to(x.dtype)


def one_past_diagonal_kept(x, scale):
    return _masked_softmax(x, scale, 1)


def diagonal_masked(x, scale):
    return _masked_softmax(x, scale, -1)


def no_scale(x, scale):
    return _masked_softmax(x, 1.0, 0)
