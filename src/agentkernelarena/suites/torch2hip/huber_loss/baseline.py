"""torch2hip/huber_loss: the PyTorch eager baseline (the elementwise Huber loss of a robust
regression head, before any weighting or reduction)."""

import torch
import torch.nn.functional as F

DELTA = 0.5


def forward(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return F.huber_loss(pred, target, reduction="none", delta=DELTA)
