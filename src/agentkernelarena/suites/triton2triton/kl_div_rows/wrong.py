"""Known-wrong per-row KL divergence variants `aka tasks check` must see rejected."""

import torch


def reversed_direction(logp: torch.Tensor, logq: torch.Tensor) -> torch.Tensor:
    """KL(q || p) instead of KL(p || q)."""
    return (torch.exp(logq) * (logq - logp)).sum(dim=-1)


def kl_div_default_target(logp: torch.Tensor, logq: torch.Tensor) -> torch.Tensor:
    """F.kl_div(logq, logp) without log_target=True: the log-probabilities read as
    probabilities (their products with the log-ratio, summed)."""
    return (logp * (logp - logq)).sum(dim=-1)
