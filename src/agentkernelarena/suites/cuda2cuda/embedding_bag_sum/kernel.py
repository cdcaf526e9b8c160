"""cuda2cuda/embedding_bag_sum: the entry. Builds kernel.cu (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(weight: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return _ext.embedding_bag_sum(weight, indices, offsets)
