"""torch2cuda/embedding_bag_mean: the entry. Builds kernel.cu (editable) with binding.cpp (not
editable).

The baseline this task is measured against is PyTorch eager, in baseline.py.
"""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return _ext.embedding_bag_mean(weight, indices, offsets)
