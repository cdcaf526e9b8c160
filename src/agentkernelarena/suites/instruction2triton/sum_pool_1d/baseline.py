"""instruction2triton/sum_pool_1d: the PyTorch eager operator the Triton kernel replaces."""

import torch


def forward(x: torch.Tensor, W: int) -> torch.Tensor:
    M, L = x.shape
    J = -(-L // W)
    padded = x.new_zeros(M, J * W)
    padded[:, :L] = x
    return padded.view(M, J, W).sum(dim=-1)
