"""Known-wrong variants of Mish."""

import torch


def naive_tanh(x: torch.Tensor) -> torch.Tensor:
    # tanh(s) = (exp(2s) - 1) / (exp(2s) + 1) without the threshold: inf / inf = nan once
    # exp(2s) overflows.
    s = torch.log1p(torch.exp(x))
    e = torch.exp(2 * s)
    return x * (e - 1) / (e + 1)


def silu_instead(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.silu(x)


def softplus_without_tanh(x: torch.Tensor) -> torch.Tensor:
    return x * torch.nn.functional.softplus(x)
