"""hip2hip/moe_topk_softmax: the entry. Builds kernel.hip (editable) with binding.cpp (not
editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(logits: torch.Tensor, topk_weights: torch.Tensor, topk_ids: torch.Tensor) -> tuple:
    return _ext.moe_topk_softmax(logits, topk_weights, topk_ids)
