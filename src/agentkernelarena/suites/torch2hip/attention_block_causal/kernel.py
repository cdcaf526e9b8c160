"""torch2hip/attention_block_causal: the entry. Builds kernel.hip (editable) with binding.cpp
(not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return _ext.attention_causal(q, k, v)
