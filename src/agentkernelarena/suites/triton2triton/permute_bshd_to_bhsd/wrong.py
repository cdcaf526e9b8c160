"""Known-wrong variant of the head-split permute: a reshape (the same memory viewed under the
new shape) in place of the permute."""

import torch


def reshape_not_permute(x: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    return x.reshape(B, H, S, D).clone()
