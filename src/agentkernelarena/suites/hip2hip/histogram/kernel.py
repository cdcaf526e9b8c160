"""hip2hip/histogram: the entry. Builds kernel.hip (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(idx: torch.Tensor, w: torch.Tensor, hist: torch.Tensor) -> torch.Tensor:
    return _ext.histogram(idx, w, hist)
