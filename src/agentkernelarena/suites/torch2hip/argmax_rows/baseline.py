"""torch2hip/argmax_rows: the PyTorch eager baseline (greedy decoding or a classifier's
prediction: the index of each row's largest logit)."""

import torch


def forward(x: torch.Tensor) -> torch.Tensor:
    return torch.argmax(x, dim=-1)
