"""Known-wrong variant `aka tasks check` must see rejected: the exact (erf) GELU, where the task
asks for the tanh approximation."""

import torch


def erf_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x @ w.T + b)
