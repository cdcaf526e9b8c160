"""Known-wrong variants of softmax(a @ b^T, dim=-1) (same arguments as the reference)."""

import torch


def softmax_over_rows(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # Normalized over m (dim 1) instead of n.
    scores = torch.bmm(a.double(), b.double().transpose(1, 2))
    return torch.softmax(scores, dim=1).to(a.dtype)


def attention_scale(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    # The 1 / sqrt(K) of attention, which this operator does not have.
    scores = torch.bmm(a.double(), b.double().transpose(1, 2)) / a.shape[-1] ** 0.5
    return torch.softmax(scores, dim=-1).to(a.dtype)
