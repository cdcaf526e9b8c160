"""torch2hip/cumsum_reverse: the PyTorch eager baseline (a reverse cumulative sum as sequence
and RL code writes it: flip, cumsum, flip back)."""

import torch


def forward(x: torch.Tensor) -> torch.Tensor:
    return x.flip(-1).cumsum(-1).flip(-1)
