"""torch2cuda/avg_pool2d: the PyTorch eager baseline (nn.AvgPool2d(3, stride=2, padding=1,
count_include_pad=False), the downsampling of ResNet-D shortcuts and pyramid pooling, NCHW)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    return F.avg_pool2d(x, kernel_size=3, stride=2, padding=1, count_include_pad=False)
