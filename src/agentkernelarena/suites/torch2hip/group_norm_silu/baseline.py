"""torch2hip/group_norm_silu: the PyTorch eager baseline (the norm1 + nonlinearity of a
diffusion UNet's ResnetBlock2D, as diffusers writes it: GroupNorm(32, C, eps=1e-6), SiLU)."""

import torch
import torch.nn.functional as F

GROUPS = 32
EPS = 1e-6


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    hidden = F.group_norm(x, GROUPS, w, b, EPS)
    return F.silu(hidden)
