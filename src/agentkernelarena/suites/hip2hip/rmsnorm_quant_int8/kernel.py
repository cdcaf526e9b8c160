"""hip2hip/rmsnorm_quant_int8: the entry. Builds kernel.hip (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor, weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    q, scale = _ext.rmsnorm_quant_int8(x, weight)
    return q, scale
