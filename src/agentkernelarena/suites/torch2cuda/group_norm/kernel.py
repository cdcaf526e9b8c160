"""torch2cuda/group_norm: the entry. Builds kernel.cu (editable) with binding.cpp (not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

GROUPS = 32
EPS = 1e-5
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return _ext.group_norm(x, weight, bias, GROUPS, EPS)
