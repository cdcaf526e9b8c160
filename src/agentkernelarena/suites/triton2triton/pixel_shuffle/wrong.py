"""Known-wrong variants of pixel shuffle: the sub-pixel offsets exchanged (channel
c * r * r + j * r + i feeds row offset i, column offset j), and the DCR channel order of
DepthToSpace (channel (i * r + j) * C + c) instead of PyTorch's CRD order."""

import torch


def subpixel_ij_swapped(x: torch.Tensor, r: int) -> torch.Tensor:
    B, CRR, H, W = x.shape
    C = CRR // (r * r)
    v = x.reshape(B, C, r, r, H, W).permute(0, 1, 4, 3, 5, 2)
    return v.reshape(B, C, H * r, W * r).contiguous()


def dcr_channel_order(x: torch.Tensor, r: int) -> torch.Tensor:
    B, CRR, H, W = x.shape
    C = CRR // (r * r)
    v = x.reshape(B, r, r, C, H, W).permute(0, 3, 4, 1, 5, 2)
    return v.reshape(B, C, H * r, W * r).contiguous()
