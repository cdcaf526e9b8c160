"""hip2hip/batched_gemv: the entry. Builds kernel.hip (editable) with binding.cpp (not editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(w: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return _ext.batched_gemv(w, x)
