"""cuda2cuda/column_reduce_sum: the entry. Builds kernel.cu (editable) with binding.cpp."""

import torch

from agentkernelarena.native import load

_ext = load(__file__, ["kernel.cu"], binding="binding.cpp")


def forward(x: torch.Tensor) -> torch.Tensor:
    return _ext.column_reduce_sum(x)
