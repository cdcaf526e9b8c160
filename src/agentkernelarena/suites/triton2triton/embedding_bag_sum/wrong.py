"""Known-wrong EmbeddingBag variants `aka tasks check` must see rejected."""

import torch
import torch.nn.functional as F


def weights_ignored(weight, indices, offsets, per_sample_weights):
    out = F.embedding_bag(indices.long(), weight.double(), offsets[:-1].long(), mode="sum")
    return out.to(weight.dtype)


def mean_mode(weight, indices, offsets, per_sample_weights):
    # The weighted sum divided by the bag size.
    out = F.embedding_bag(indices.long(), weight.double(), offsets[:-1].long(), mode="sum",
                          per_sample_weights=per_sample_weights.double())
    n = (offsets[1:] - offsets[:-1]).clamp(min=1).double()[:, None]
    return (out / n).to(weight.dtype)


def last_index_dropped(weight, indices, offsets, per_sample_weights):
    # Each bag summed over offsets[b] .. offsets[b + 1] - 2 (an off-by-one bound).
    o = offsets.long()
    keep = torch.ones(indices.shape[0], dtype=torch.bool)
    ends = o[1:][o[1:] > o[:-1]] - 1
    keep[ends] = False
    psw = torch.where(keep, per_sample_weights.double(), 0.0)
    out = F.embedding_bag(indices.long(), weight.double(), o[:-1], mode="sum",
                          per_sample_weights=psw)
    return out.to(weight.dtype)
