"""torch2hip/add_layernorm: the PyTorch eager baseline (a post-LN transformer block, BERT
style: the sublayer's output added to the residual stream, then nn.LayerNorm)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def forward(
    x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor, b: torch.Tensor
) -> torch.Tensor:
    hidden = x + residual
    return F.layer_norm(hidden, (hidden.shape[-1],), w, b, EPS)
