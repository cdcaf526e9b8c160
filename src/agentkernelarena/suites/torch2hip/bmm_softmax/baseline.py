"""torch2hip/bmm_softmax: the PyTorch eager baseline (the scores of a batched similarity or
attention over many small matrix pairs: bmm, then softmax over the last dimension)."""

import torch


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.softmax(torch.bmm(a, b.transpose(1, 2)), dim=-1)
