"""instruction2triton/leaky_relu_backward: the PyTorch eager operator the Triton kernel replaces
(the backward of a hand-written LeakyReLU autograd function)."""

import torch


def forward(dy: torch.Tensor, x: torch.Tensor, slope: float) -> torch.Tensor:
    return torch.where(x > 0, dy, dy * slope)
