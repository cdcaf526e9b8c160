"""torch2triton/group_topk_softmax: the PyTorch eager baseline (a mixture-of-experts router as
Hugging Face's Mixtral sparse MoE block writes it: softmax over the experts in float32,
torch.topk, renormalization of the chosen weights to sum to 1, and the cast back to the model's
dtype)."""

import torch
import torch.nn.functional as F


def forward(router_logits: torch.Tensor, top_k: int) -> tuple:
    routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
    routing_weights, selected_experts = torch.topk(routing_weights, top_k, dim=-1)
    routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
    routing_weights = routing_weights.to(router_logits.dtype)
    return (routing_weights, selected_experts)
