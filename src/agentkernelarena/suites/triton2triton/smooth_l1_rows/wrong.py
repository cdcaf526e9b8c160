"""Known-wrong variants of the per-row smooth L1 loss."""

import torch


def beta_scaling_missing(pred: torch.Tensor, target: torch.Tensor, beta: float) -> torch.Tensor:
    # 0.5 * d^2 in the quadratic branch, not 0.5 * d^2 / beta.
    d = (pred - target).abs()
    loss = torch.where(d < beta, 0.5 * d * d, d - 0.5 * beta)
    return loss.sum(dim=1).float()


def huber_instead(pred: torch.Tensor, target: torch.Tensor, beta: float) -> torch.Tensor:
    # torch.nn.functional.huber_loss(delta=beta) = beta * smooth_l1_loss(beta=beta).
    return torch.nn.functional.huber_loss(pred, target, delta=beta,
                                          reduction="none").sum(dim=1).float()


def mean_instead_of_sum(pred: torch.Tensor, target: torch.Tensor, beta: float) -> torch.Tensor:
    return torch.nn.functional.smooth_l1_loss(pred, target, beta=beta,
                                              reduction="none").mean(dim=1).float()
