"""instruction2triton/hard_swish: the PyTorch eager operator the Triton kernel replaces (the
MobileNetV3-style module code)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    return x * F.relu6(x + 3.0) / 6.0
