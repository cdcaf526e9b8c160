"""torch2hip/l2_normalize: the PyTorch eager baseline (the Normalize step of an embedding
model, as sentence-transformers writes it)."""

import torch
import torch.nn.functional as F


def forward(x: torch.Tensor) -> torch.Tensor:
    return F.normalize(x, p=2.0, dim=-1)
