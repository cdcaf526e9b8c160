"""Known-wrong variants of the Huber loss with delta 0.5 (same arguments as the reference)."""

import torch
import torch.nn.functional as F

DELTA = 0.5


def _d(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if pred.dtype == torch.float64 else torch.float32
    return pred.to(acc) - target.to(acc)


def smooth_l1(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    # Smooth L1 with beta = delta: the Huber loss divided by delta.
    return F.smooth_l1_loss(pred, target, reduction="none", beta=DELTA)


def linear_without_delta(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    d = _d(pred, target)
    a = d.abs()
    return torch.where(a < DELTA, 0.5 * d * d, a - 0.5 * DELTA).to(pred.dtype)


def squared_only(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    d = _d(pred, target)
    return (0.5 * d * d).to(pred.dtype)
