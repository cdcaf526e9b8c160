"""torch2cuda/linear_relu: the PyTorch eager baseline (nn.Linear followed by nn.ReLU, the hidden
layer of an MLP, in 16-bit precision: cuBLAS's GEMM with the bias, then a separate ReLU)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return F.relu(F.linear(x, weight, bias))
