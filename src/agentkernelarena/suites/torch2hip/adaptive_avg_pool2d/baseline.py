"""torch2hip/adaptive_avg_pool2d: the PyTorch eager baseline (nn.AdaptiveAvgPool2d((7, 7))
at the end of a CNN backbone, as torchvision's VGG writes it)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    return F.adaptive_avg_pool2d(x, (7, 7))
