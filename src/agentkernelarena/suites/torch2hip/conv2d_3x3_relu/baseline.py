"""torch2hip/conv2d_3x3_relu: the PyTorch eager baseline (nn.Conv2d(Cin, Cout, 3, padding=1)
followed by nn.ReLU, the basic block of a VGG-style or U-Net CNN)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.relu(F.conv2d(x, w, b, padding=1))
