"""torch2cuda/bias_gelu_residual: the entry. Builds kernel.cu (editable) with binding.cpp.

binding.cpp is not editable. The baseline this task is measured against is PyTorch eager, in
baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, b: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
    return _ext.bias_gelu_residual(x, b, residual)
