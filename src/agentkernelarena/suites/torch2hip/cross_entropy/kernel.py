"""torch2hip/cross_entropy: the entry. Builds kernel.hip (editable) with binding.cpp (not
editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return _ext.cross_entropy(logits, targets)
