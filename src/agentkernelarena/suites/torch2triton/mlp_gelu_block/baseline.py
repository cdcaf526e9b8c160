"""torch2triton/mlp_gelu_block: the PyTorch eager baseline (a KernelBench-style model: the MLP
of a GPT-2-style block, nn.Linear -> nn.GELU(approximate="tanh") -> nn.Linear, as its forward
runs eagerly: a cuBLAS matmul with the bias, the GELU kernel over the M x H hidden activation,
and a second cuBLAS matmul with the bias)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor,
            b2: torch.Tensor) -> torch.Tensor:
    return F.linear(F.gelu(F.linear(x, w1, b1), approximate="tanh"), w2, b2)
