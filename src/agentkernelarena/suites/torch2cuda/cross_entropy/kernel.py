"""torch2cuda/cross_entropy: the entry. Builds kernel.cu (editable) with binding.cpp (not
editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

IGNORE_INDEX = -100
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return _ext.cross_entropy(logits, targets, IGNORE_INDEX)
