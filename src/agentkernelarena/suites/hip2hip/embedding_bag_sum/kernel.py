"""hip2hip/embedding_bag_sum: the entry. Builds kernel.hip (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.hip"], binding="binding.cpp")


def forward(table: torch.Tensor, indices: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    return _ext.embedding_bag_sum(table, indices, offsets)
