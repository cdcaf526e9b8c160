"""Known-wrong variants of the PaLM z-loss."""

import torch


def lse_not_squared(logits: torch.Tensor, coef: float) -> torch.Tensor:
    return (coef * torch.logsumexp(logits, dim=-1)).float()


def max_instead_of_logsumexp(logits: torch.Tensor, coef: float) -> torch.Tensor:
    m = logits.max(dim=-1).values
    return (coef * m * m).float()


def coef_left_out(logits: torch.Tensor, coef: float) -> torch.Tensor:
    lse = torch.logsumexp(logits, dim=-1)
    return (lse * lse).float()
