"""Known-wrong variants of the per-row mean squared error (same arguments as the reference)."""

import torch


def _diff(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if pred.dtype == torch.float64 else torch.float32
    return pred.to(acc) - target.to(acc)


def sum_not_mean(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    d = _diff(pred, target)
    return (d * d).sum(dim=-1).to(pred.dtype)


def mean_abs_error(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return _diff(pred, target).abs().mean(dim=-1).to(pred.dtype)


def unbiased_divisor(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    d = _diff(pred, target)
    return ((d * d).sum(dim=-1) / max(pred.shape[-1] - 1, 1)).to(pred.dtype)
