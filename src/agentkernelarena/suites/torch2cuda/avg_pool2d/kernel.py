"""torch2cuda/avg_pool2d: the entry. Builds kernel.cu (editable) with binding.cpp (not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor) -> torch.Tensor:
    return _ext.avg_pool2d(x)
