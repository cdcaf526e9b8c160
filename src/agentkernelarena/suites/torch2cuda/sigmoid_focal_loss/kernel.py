"""torch2cuda/sigmoid_focal_loss: the entry. Builds kernel.cu (editable) with binding.cpp.

binding.cpp is not editable. The baseline this task is measured against is PyTorch eager, in
baseline.py.
"""

import torch

from agentkernelarena.native import load

ALPHA = 0.25
GAMMA = 2.0
_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return _ext.sigmoid_focal_loss(logits, targets, ALPHA, GAMMA)
