"""torch2cuda/causal_depthwise_conv1d: the entry. Builds kernel.cu (editable) with binding.cpp
(not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return _ext.causal_conv1d_silu(x, weight, bias)
