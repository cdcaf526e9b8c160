"""torch2hip/mlp_block: the PyTorch eager baseline (nn.Sequential(nn.Linear(K, H), nn.ReLU(),
nn.Linear(H, N)) applied to M rows, written functionally)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor, w1: torch.Tensor, b1: torch.Tensor, w2: torch.Tensor,
            b2: torch.Tensor) -> torch.Tensor:
    return F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)
