"""Known-wrong variants of the log-softmax backward: y used where exp(y) belongs, and the
softmax backward formula (p * (dy - sum(p * dy))) applied instead."""

import torch


def y_not_exponentiated(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    return dy - y * dy.sum(dim=-1, keepdim=True)


def softmax_backward_formula(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    p = torch.exp(y)
    return p * (dy - (p * dy).sum(dim=-1, keepdim=True))
