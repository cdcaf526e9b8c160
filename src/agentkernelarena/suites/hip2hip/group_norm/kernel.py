"""hip2hip/group_norm: the entry. Builds kernel.hip (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return _ext.group_norm(x, weight, bias)
