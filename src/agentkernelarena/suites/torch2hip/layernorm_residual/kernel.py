"""torch2hip/layernorm_residual: the entry. Builds kernel.hip (editable) with binding.cpp (not
editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor,
            b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    h, y = _ext.layernorm_residual(x, residual, w, b)
    return h, y
