"""torch2cuda/geglu: the PyTorch eager baseline (a GEGLU feed-forward activation module)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    hidden, gate = x.chunk(2, dim=-1)
    return hidden * F.gelu(gate)
