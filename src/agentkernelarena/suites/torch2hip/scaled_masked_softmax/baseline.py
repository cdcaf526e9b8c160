"""torch2hip/scaled_masked_softmax: the PyTorch eager baseline (the softmax of an eager
attention implementation, as Hugging Face's LLaMA writes it: scale, mask, softmax in float32,
cast back)."""

import torch
import torch.nn.functional as F

SCALE = 128**-0.5  # 1 / sqrt(head_dim) with head_dim 128


def forward(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    attn = scores * SCALE
    attn = attn.masked_fill(mask, float("-inf"))
    return F.softmax(attn, dim=-1, dtype=torch.float32).to(scores.dtype)
