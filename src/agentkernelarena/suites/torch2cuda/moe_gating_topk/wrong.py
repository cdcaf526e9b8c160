"""Known-wrong variants `aka tasks check` must see rejected: the top-k probabilities not
renormalized, and sigmoid scores (DeepSeek-V3's gate) instead of the softmax."""

import torch

TOP_K = 4


def _dense(scores: torch.Tensor, renormalize: bool) -> torch.Tensor:
    weights, ids = torch.topk(scores, TOP_K, dim=-1)
    if renormalize:
        weights = weights / weights.sum(dim=-1, keepdim=True)
    return torch.zeros_like(scores).scatter_(1, ids, weights)


def not_renormalized(router_logits: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if router_logits.dtype == torch.float64 else torch.float32
    return _dense(torch.softmax(router_logits.to(acc), dim=-1), renormalize=False)


def sigmoid_scores(router_logits: torch.Tensor) -> torch.Tensor:
    acc = torch.float64 if router_logits.dtype == torch.float64 else torch.float32
    return _dense(torch.sigmoid(router_logits.to(acc)), renormalize=True)
