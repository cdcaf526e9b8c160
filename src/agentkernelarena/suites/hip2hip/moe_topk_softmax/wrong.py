"""Known-wrong variants of MoE top-k gating: the softmax probabilities not renormalized, the
experts in ascending order, and the experts in index order."""

import torch


def not_renormalized(logits, topk_weights, topk_ids):
    top_k = topk_ids.shape[1]
    w, ids = torch.topk(torch.softmax(logits.to(torch.float64), -1), top_k, dim=-1)
    return (w, ids.to(torch.int32))


def ascending(logits, topk_weights, topk_ids):
    top_k = topk_ids.shape[1]
    w, ids = torch.topk(torch.softmax(logits.to(torch.float64), -1), top_k, dim=-1)
    w = w / w.sum(-1, keepdim=True)
    return (w.flip(-1), ids.flip(-1).to(torch.int32))


def index_order(logits, topk_weights, topk_ids):
    top_k = topk_ids.shape[1]
    w, ids = torch.topk(torch.softmax(logits.to(torch.float64), -1), top_k, dim=-1)
    ids, order = ids.sort(-1)
    w = (w / w.sum(-1, keepdim=True)).gather(1, order)
    return (w, ids.to(torch.int32))
