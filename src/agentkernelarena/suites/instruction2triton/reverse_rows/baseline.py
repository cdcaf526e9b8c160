"""instruction2triton/reverse_rows: the PyTorch eager operator the Triton kernel replaces."""

import torch


def forward(x: torch.Tensor) -> torch.Tensor:
    return torch.flip(x, dims=[-1])
