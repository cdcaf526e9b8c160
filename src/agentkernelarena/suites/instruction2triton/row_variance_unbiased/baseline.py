"""instruction2triton/row_variance_unbiased: the PyTorch eager operator the Triton kernel
replaces (per-row statistics of a 16-bit tensor as model code writes them: a cast to float32,
then torch.var's unbiased default)."""

import torch


def forward(x: torch.Tensor) -> torch.Tensor:
    return x.float().var(dim=-1)
