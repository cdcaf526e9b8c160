"""hip2hip/conv2d_3x3: the entry. Builds kernel.hip (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    return _ext.conv2d_3x3(x, weight, bias)
