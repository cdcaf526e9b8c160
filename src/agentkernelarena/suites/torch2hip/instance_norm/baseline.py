"""torch2hip/instance_norm: the PyTorch eager baseline (nn.InstanceNorm2d(C, affine=True) of
a style-transfer or image-to-image network, without running statistics)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.instance_norm(x, weight=w, bias=b, eps=EPS)
