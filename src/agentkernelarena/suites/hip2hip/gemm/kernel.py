"""hip2hip/gemm: the entry. Builds kernel.hip (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.gemm(a, b)
