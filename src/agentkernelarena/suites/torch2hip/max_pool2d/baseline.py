"""torch2hip/max_pool2d: the PyTorch eager baseline (the 2 x 2 downsampling of a VGG- or
ResNet-style CNN, nn.MaxPool2d(2, 2))."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    return F.max_pool2d(x, kernel_size=2, stride=2)
