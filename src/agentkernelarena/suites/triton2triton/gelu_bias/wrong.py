"""Known-wrong variant `aka tasks check` must see rejected: the tanh approximation of GELU,
where the task asks for the exact (erf) one."""

import torch


def tanh_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x + bias, approximate="tanh")
