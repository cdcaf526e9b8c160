"""torch2hip/batchnorm_train_forward: the entry. Builds kernel.hip (editable) with binding.cpp
(not editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return _ext.batchnorm_train_forward(x, w, b)
