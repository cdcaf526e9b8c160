"""Known-wrong variants of top-k renormalization: the kept probabilities not renormalized, and
the k-th largest value itself dropped (strictly greater than the k-th, keeping k - 1)."""

import torch


def not_renormalized(probs, k):
    vals = probs.sort(dim=1, descending=True).values
    kth = vals.gather(1, k.long()[:, None] - 1)
    return torch.where(probs >= kth, probs, torch.zeros_like(probs))


def keeps_k_minus_one(probs, k):
    vals = probs.sort(dim=1, descending=True).values
    kth = vals.gather(1, k.long()[:, None] - 1)
    kept = torch.where(probs > kth, probs, torch.zeros_like(probs))
    total = kept.sum(dim=1, keepdim=True)
    return kept / torch.where(total > 0, total, torch.ones_like(total))
