"""hip2hip/farthest_point_sampling: the entry. Builds kernel.hip (editable) with binding.cpp
(not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(points: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    return _ext.farthest_point_sampling(points, idx)
