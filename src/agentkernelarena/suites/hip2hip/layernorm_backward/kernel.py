"""hip2hip/layernorm_backward: the entry. Builds kernel.hip (editable) with binding.cpp (not
editable)."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor, mean: torch.Tensor,
            rstd: torch.Tensor) -> tuple:
    return _ext.layernorm_backward(dy, x, weight, mean, rstd)
