"""Known-wrong variants `aka tasks check` must see rejected: the tanh approximation of GELU
(the task asks for the erf form), and the unbiased variance (divided by N - 1)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def tanh_gelu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    y = F.layer_norm(x, (x.shape[-1],), weight, bias, eps=EPS)
    return F.gelu(y, approximate="tanh")


def unbiased_variance(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    mean = x.mean(-1, keepdim=True)
    var = x.var(-1, keepdim=True, unbiased=True)
    return F.gelu((x - mean) / torch.sqrt(var + EPS) * weight + bias)
