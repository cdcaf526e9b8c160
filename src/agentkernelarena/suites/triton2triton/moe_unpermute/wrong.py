"""Known-wrong variants of the MoE un-permute: the rows taken in place (row t * K + k, no
un-permutation), and the index used the other way round (a scatter through dest instead of a
gather)."""

import torch


def not_unpermuted(y, dest, weights):
    T, K = dest.shape
    rows = y.view(T, K, -1).float()
    return (rows * weights.float()[..., None]).sum(dim=1).to(y.dtype)


def inverse_index(y, dest, weights):
    T, K = dest.shape
    inv = torch.empty_like(dest.flatten().long())
    inv[dest.flatten().long()] = torch.arange(T * K, device=y.device)
    rows = y[inv].view(T, K, -1).float()
    return (rows * weights.float()[..., None]).sum(dim=1).to(y.dtype)
