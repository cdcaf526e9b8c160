"""torch2triton/masked_mean_pool: the PyTorch eager baseline (sentence-embedding mean pooling as
sentence-transformers' mean_pooling writes it: the attention mask broadcast over the hidden
size in the hidden states' dtype, the masked sum over the sequence divided by the number of
real tokens, clamped so that an all-padding sequence gives 0 rather than a division by
zero)."""

import torch


def forward(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
    summed = torch.sum(hidden * mask, dim=1)
    counts = torch.clamp(mask.sum(dim=1), min=1e-9)
    return summed / counts
