"""Known-wrong variant `aka tasks check` must see rejected: the exact (erf) GELU, where the task
asks for the tanh approximation."""

import torch


def erf_gelu(x: torch.Tensor, b: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    h = x.to(acc) + b.to(acc)
    return (residual.to(acc) + torch.nn.functional.gelu(h)).to(x.dtype)
