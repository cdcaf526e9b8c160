"""torch2cuda/bias_gelu_residual: the PyTorch eager baseline (a GPT-style MLP epilogue)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, b: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
    return residual + F.gelu(x + b, approximate="tanh")
