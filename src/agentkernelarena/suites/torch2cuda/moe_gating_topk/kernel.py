"""torch2cuda/moe_gating_topk: the entry. Builds kernel.cu (editable) with binding.cpp (not
editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

TOP_K = 4
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(router_logits: torch.Tensor) -> torch.Tensor:
    return _ext.moe_gating_topk(router_logits, TOP_K)
