"""torch2hip/gelu_bias: the PyTorch eager baseline (a transformer MLP's bias + GELU epilogue)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(x + b, approximate="tanh")
