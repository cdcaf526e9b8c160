"""torch2cuda/causal_depthwise_conv1d: the PyTorch eager baseline (the short causal convolution
of a Mamba block as its reference path writes it: a depthwise nn.Conv1d padded by K - 1 on both
sides, the first L outputs kept, then SiLU)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    C, K = weight.shape
    L = x.shape[-1]
    y = F.conv1d(x, weight.unsqueeze(1), bias, padding=K - 1, groups=C)[..., :L]
    return F.silu(y)
