"""torch2hip/layernorm_residual: the PyTorch eager baseline (a pre-LN transformer block: the
sublayer's output added to the residual stream, which is kept, then nn.LayerNorm)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def forward(x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor,
            b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    hidden = x + residual
    return hidden, F.layer_norm(hidden, (hidden.shape[-1],), w, b, EPS)
