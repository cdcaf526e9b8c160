"""torch2cuda/layernorm: the entry. Builds kernel.cu (editable) with binding.cpp (not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

EPS = 1e-5
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.layernorm(x, w, b, EPS)
