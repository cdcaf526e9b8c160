"""torch2cuda/moe_gating_topk: the PyTorch eager baseline (the router of a mixture-of-experts
layer as Qwen-MoE- and DBRX-style code writes it: softmax in float32, top-4, the chosen weights
renormalized to sum to 1, then scattered into a dense tokens x experts combine matrix)."""

import torch

TOP_K = 4


def forward(router_logits: torch.Tensor) -> torch.Tensor:
    probs = torch.softmax(router_logits, dim=-1, dtype=torch.float32)
    weights, ids = torch.topk(probs, TOP_K, dim=-1)
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return torch.zeros_like(probs).scatter_(1, ids, weights)
