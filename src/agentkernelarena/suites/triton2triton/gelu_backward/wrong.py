"""Known-wrong variants of the erf-GELU backward: the derivative of the tanh approximation, and
the derivative taken as Phi(x) alone (the x * phi(x) term forgotten)."""

import math

import torch


def tanh_gelu_backward(x: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    k = math.sqrt(2.0 / math.pi)
    t = torch.tanh(k * (x + 0.044715 * x * x * x))
    grad = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x)
    return dy * grad


def gelu_cdf_only(x: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    return dy * 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))
