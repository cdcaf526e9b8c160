"""torch2hip/linear_gelu: the PyTorch eager baseline (nn.Linear followed by nn.GELU, the first
half of a BERT/GPT-2 style MLP)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(F.linear(x, w, b))
