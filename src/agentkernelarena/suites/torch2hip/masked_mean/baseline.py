"""torch2hip/masked_mean: the PyTorch eager baseline (mean pooling of sentence embeddings)."""

import torch


def forward(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    m = mask.unsqueeze(-1).to(x.dtype)
    return (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1)
