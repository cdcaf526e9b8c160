"""instruction2triton/gemv_bias: the PyTorch eager operator the Triton kernel replaces (a linear
layer applied to a single vector, as decode-time model code does: F.linear on a 1-D input runs
the matrix-vector product, then adds the bias in a second kernel)."""

import torch
import torch.nn.functional as F


def forward(w: torch.Tensor, x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.linear(x, w, b)
