"""Known-wrong variants `aka tasks check` must see rejected: the taps applied in reverse (a true
convolution where PyTorch's conv1d correlates), and a centred window instead of a causal one."""

import torch
import torch.nn.functional as F


def flipped_taps(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    C, K = weight.shape
    y = F.conv1d(x.to(acc), weight.to(acc).flip(-1).unsqueeze(1), bias.to(acc), padding=K - 1,
                 groups=C)[..., : x.shape[-1]]
    return F.silu(y).to(x.dtype)


def centred_window(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if x.dtype == torch.float64 else torch.float32
    C, K = weight.shape
    L = x.shape[-1]
    y = F.conv1d(x.to(acc), weight.to(acc).unsqueeze(1), bias.to(acc), padding=K - 1, groups=C)
    start = (K - 1) // 2 if K > 2 else 1
    return F.silu(y[..., start:start + L]).to(x.dtype)
