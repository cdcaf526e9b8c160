"""Known-wrong variants of the reverse cumulative sum (same arguments as the reference)."""

import torch


def forward_cumsum(x: torch.Tensor) -> torch.Tensor:
    return x.cumsum(-1)


def exclusive(x: torch.Tensor) -> torch.Tensor:
    # The suffix sum after the element, without it.
    return x.flip(-1).cumsum(-1).flip(-1) - x


def unflipped(x: torch.Tensor) -> torch.Tensor:
    # The flip back forgotten.
    return x.flip(-1).cumsum(-1)
