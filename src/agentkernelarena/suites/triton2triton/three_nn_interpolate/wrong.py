"""Known-wrong variants of the three-NN interpolation: the weights paired with the neighbours
in reverse order, and the plain mean of the three neighbours (weights ignored)."""

import torch


def _interp(feats, idx, weight):
    B, C, M = feats.shape
    N = idx.shape[1]
    g = torch.gather(feats, 2, idx.reshape(B, 1, N * 3).expand(B, C, N * 3))
    return (g.reshape(B, C, N, 3) * weight.to(g.dtype)[:, None]).sum(-1).to(feats.dtype)


def reversed_weights(feats: torch.Tensor, idx: torch.Tensor, weight: torch.Tensor):
    return _interp(feats, idx, weight.flip(-1))


def uniform_weights(feats: torch.Tensor, idx: torch.Tensor, weight: torch.Tensor):
    return _interp(feats, idx, torch.full_like(weight, 1.0 / 3.0))
