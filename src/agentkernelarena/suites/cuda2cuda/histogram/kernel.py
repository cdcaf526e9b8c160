"""cuda2cuda/histogram: the entry. Builds kernel.cu (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, edges: torch.Tensor) -> torch.Tensor:
    return _ext.histogram(x, edges)
