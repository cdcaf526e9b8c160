"""cuda2cuda/hgemm: the entry. Builds kernel.cu (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.hgemm(a, b)
