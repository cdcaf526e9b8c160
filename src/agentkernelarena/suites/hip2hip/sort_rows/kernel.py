"""hip2hip/sort_rows: the entry. Builds kernel.hip (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    values, indices = _ext.sort_rows(x)
    return values, indices
