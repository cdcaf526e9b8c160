"""Known-wrong variants of the MoE permute: the index read as a gather (row i of the output
taken from token dest[i] // K) instead of a scatter, and the slots of a token in the wrong
order (dest read as K x T)."""

import torch


def gather_instead_of_scatter(x, dest):
    T, K = dest.shape
    return x[dest.flatten().long() // K]


def index_transposed(x, dest):
    T, K = dest.shape
    flat = dest.flatten().long()
    src = torch.arange(T * K, device=x.device) % T
    out = torch.empty((T * K, x.shape[1]), dtype=x.dtype, device=x.device)
    out[flat] = x[src]
    return out
