"""torch2triton/cross_entropy_per_token: the PyTorch eager baseline (per-token losses of a
language model, as training code that weights or masks tokens writes them: the logits upcast to
float32, then F.cross_entropy with reduction='none' and the default ignore_index -100 for
padding and prompt tokens)."""

import torch
import torch.nn.functional as F


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.float(), targets, ignore_index=-100, reduction="none")
