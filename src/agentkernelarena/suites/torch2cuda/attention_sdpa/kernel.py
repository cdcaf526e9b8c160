"""torch2cuda/attention_sdpa: the entry. Builds kernel.cu (editable) with binding.cpp (not
editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return _ext.attention(q, k, v, q.shape[-1] ** -0.5)
