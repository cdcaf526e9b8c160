"""Known-wrong variants of the sigmoid focal loss."""

import torch


def _focal(x, targets, alpha, gamma):
    p = torch.sigmoid(x)
    ce = torch.nn.functional.binary_cross_entropy_with_logits(x, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    return (alpha * targets + (1 - alpha) * (1 - targets)) * ce * (1 - p_t) ** gamma


def alpha_swapped(x: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    # alpha weighting the negatives and 1 - alpha the positives.
    return _focal(x, targets, 0.75, 2.0)


def alpha_left_out(x: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return _focal(x, targets, 0.5, 2.0) * 2.0


def modulating_factor_on_p(x: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    # (1 - p)^gamma for every element instead of (1 - p_t)^gamma.
    p = torch.sigmoid(x)
    ce = torch.nn.functional.binary_cross_entropy_with_logits(x, targets, reduction="none")
    return (0.25 * targets + 0.75 * (1 - targets)) * ce * (1 - p) ** 2
