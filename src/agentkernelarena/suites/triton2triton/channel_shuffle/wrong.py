"""Known-wrong variant of channel shuffle: the inverse permutation (the channels viewed as
(CPG, groups) instead of (groups, CPG)), which is the same only when CPG == groups."""

import torch


def inverse_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    B, C, H, W = x.shape
    return x.view(B, C // groups, groups, H, W).transpose(1, 2).reshape(B, C, H, W)
