"""torch2hip/cross_entropy: the PyTorch eager baseline (per-token losses of a model run in
16-bit precision, e.g. to score sequences or to weight tokens: F.cross_entropy with
reduction='none' and the default ignore_index -100, on the logits as the model returns them)."""

import torch
import torch.nn.functional as F


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits, targets, ignore_index=-100, reduction="none")
