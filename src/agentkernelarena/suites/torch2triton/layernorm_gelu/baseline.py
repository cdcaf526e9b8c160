"""torch2triton/layernorm_gelu: the PyTorch eager baseline (a LayerNorm module followed by an
exact-GELU activation, as in a BERT/ViT-style prediction head's transform: the normalized
hidden states go through F.gelu, whose default is the erf form)."""

import torch
import torch.nn.functional as F

EPS = 1e-5


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return F.gelu(F.layer_norm(x, (x.shape[-1],), weight, bias, eps=EPS))
