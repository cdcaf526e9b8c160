"""Known-wrong variants `aka tasks check` must see rejected: the tanh approximation of GELU
(the task asks for the erf form), and dropout's training-mode rescaling by 1 / (1 - p) applied
in eval mode."""

import torch
import torch.nn.functional as F


def tanh_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return F.gelu(x + bias, approximate="tanh")


def dropout_rescaled(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return F.gelu(x + bias) / 0.9
