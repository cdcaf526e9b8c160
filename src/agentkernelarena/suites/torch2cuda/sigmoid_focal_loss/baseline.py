"""torch2cuda/sigmoid_focal_loss: the PyTorch eager baseline (torchvision's formulation)."""

import torch
import torch.nn.functional as F

ALPHA = 0.25
GAMMA = 2.0


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logits)
    ce_loss = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** GAMMA)
    alpha_t = ALPHA * targets + (1 - ALPHA) * (1 - targets)
    return alpha_t * loss
