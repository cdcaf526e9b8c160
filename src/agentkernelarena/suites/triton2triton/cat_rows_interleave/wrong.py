"""Known-wrong variants of the three-way concatenation: the last two inputs in the wrong order
(K and V swapped in a fused QKV; the output shape is the same), and the inputs written one
after another as whole blocks (each flattened input copied to consecutive memory) instead of
row by row."""

import torch


def y_and_z_swapped(x, y, z):
    return torch.cat([x, z, y], dim=-1)


def stacked_not_interleaved(x, y, z):
    M = x.shape[0]
    flat = torch.cat([x.reshape(-1), y.reshape(-1), z.reshape(-1)])
    return flat.reshape(M, -1)
