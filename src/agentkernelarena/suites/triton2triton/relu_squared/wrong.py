"""Known-wrong variants of bias + squared ReLU."""

import torch


def square_without_relu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.square(x + bias)


def bias_after_activation(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.square(torch.relu(x)) + bias


def relu_not_squared(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.relu(x + bias)
