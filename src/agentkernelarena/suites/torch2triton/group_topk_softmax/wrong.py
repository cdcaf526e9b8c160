"""Known-wrong variants `aka tasks check` must see rejected: the chosen weights not renormalized
(Mixtral's norm_topk_prob off), and sigmoid scores instead of the softmax (DeepSeek-V3's
scoring), renormalized."""

import torch


def not_renormalized(router_logits: torch.Tensor, top_k: int) -> tuple:
    weights, ids = torch.topk(torch.softmax(router_logits, dim=-1), top_k, dim=-1)
    return (weights, ids)


def sigmoid_scores(router_logits: torch.Tensor, top_k: int) -> tuple:
    weights, ids = torch.topk(torch.sigmoid(router_logits), top_k, dim=-1)
    return (weights / weights.sum(dim=-1, keepdim=True), ids)
