"""torch2triton/sdpa_causal: the PyTorch eager baseline (the attention of a decoder-only
transformer's prefill, as model code calls it: F.scaled_dot_product_attention with
is_causal=True, which PyTorch dispatches to its fused flash-attention kernel for 16-bit
inputs on the GPU)."""

import torch
import torch.nn.functional as F


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
