"""torch2cuda/cross_entropy: the PyTorch eager baseline (per-token losses of a language model as
training and evaluation code computes them: the logits upcast to float32 first, then
F.cross_entropy with reduction='none' and ignore_index -100)."""

import torch
import torch.nn.functional as F


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.float(), targets, ignore_index=-100, reduction="none")
