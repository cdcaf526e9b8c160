"""torch2cuda/attention_sdpa: the PyTorch eager baseline (non-causal multi-head self-attention of
an encoder or a diffusion transformer through F.scaled_dot_product_attention, which dispatches
to FlashAttention on an H200)."""

import torch
import torch.nn.functional as F


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v)
