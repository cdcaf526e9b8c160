"""Known-wrong variants `aka tasks check` must see rejected: the groups formed from interleaved
channels (c % 32 instead of c // (C / 32)), and the unbiased variance."""

import torch

GROUPS = 32
EPS = 1e-5


def interleaved_groups(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    N, C, H, W = x.shape
    xg = x.to(acc).reshape(N, C // GROUPS, GROUPS, H * W).transpose(1, 2).reshape(N, GROUPS, -1)
    mean = xg.mean(-1, keepdim=True)
    var = (xg - mean).pow(2).mean(-1, keepdim=True)
    y = ((xg - mean) * torch.rsqrt(var + EPS)).reshape(N, GROUPS, C // GROUPS, H * W)
    y = y.transpose(1, 2).reshape(N, C, H, W)
    return (y * weight.to(acc)[:, None, None] + bias.to(acc)[:, None, None]).to(x.dtype)


def unbiased_variance(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    N, C, H, W = x.shape
    xg = x.to(acc).reshape(N, GROUPS, -1)
    mean = xg.mean(-1, keepdim=True)
    var = xg.var(-1, unbiased=True, keepdim=True)
    y = ((xg - mean) * torch.rsqrt(var + EPS)).reshape(N, C, H, W)
    return (y * weight.to(acc)[:, None, None] + bias.to(acc)[:, None, None]).to(x.dtype)
