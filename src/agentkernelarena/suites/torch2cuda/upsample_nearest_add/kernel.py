"""torch2cuda/upsample_nearest_add: the entry. Builds kernel.cu (editable) with binding.cpp
(not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(fine: torch.Tensor, coarse: torch.Tensor) -> torch.Tensor:
    return _ext.upsample_nearest_add(fine, coarse)
